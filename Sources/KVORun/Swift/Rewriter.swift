import KVOScript
import RewriterProtocol

#if canImport(Glibc)
import Glibc
#endif

/// kvo-run's side of the rewriter helper (SPEC §11.0): the helper compiled
/// with the runtime against the toolchain's own swift-syntax
/// (`RewriterBuild`), started on first use and kept running while this
/// value lives (a REPL session asks it once per line). It reads requests on
/// its standard input and answers on its standard output, through one Unix
/// socket pair (`send` with `MSG_NOSIGNAL`: a helper that died is an error to
/// report, not a SIGPIPE that ends kvo-run). It is in a process group of its
/// own, so Ctrl-C at the terminal stops the program being run, not the
/// helper; it ends when kvo-run closes its socket (or exits). A request
/// still unanswered when the run's deadline passes (swift-syntax's parser
/// takes minutes over a few dozen nested brackets) stops the helper, its
/// group with it; the next request starts another.
final class Rewriter {
    let executable: String
    private var pid: pid_t = 0
    private var socket: Int32 = -1

    init(executable: String) {
        self.executable = executable
    }

    deinit { stop() }

    // MARK: Requests

    func rewrite(_ source: String, fileName: String, deadline: Deadline) throws -> RewrittenProgram {
        guard case .rewritten(let program) = try ask(.rewrite(source: source, fileName: fileName), deadline: deadline)
        else {
            throw Self.unexpected
        }
        return program
    }

    func replProgram(_ entries: [REPLEntry], deadline: Deadline) throws -> REPLProgram {
        guard case .replProgram(let program) = try ask(.replProgram(entries), deadline: deadline) else {
            throw Self.unexpected
        }
        return program
    }

    func isIncomplete(_ text: String, deadline: Deadline) throws -> Bool {
        guard
            case .isIncomplete(let answer) = try ask(.isIncomplete(text), deadline: deadline, step: "reading the entry")
        else { throw Self.unexpected }
        return answer
    }

    func replacingDeclarations(
        in earlier: [REPLEntry], by entry: String, deadline: Deadline
    ) throws -> (
        entries: [REPLEntry], replaced: [String]
    ) {
        guard
            case .replacingDeclarations(let entries, let replaced) = try ask(
                .replacingDeclarations(earlier: earlier, by: entry), deadline: deadline)
        else { throw Self.unexpected }
        return (entries, replaced)
    }

    private static let unexpected = SwiftProgram.Failure(
        message:
            "kvo-run's rewriter answered a different question (a helper from another kvo-run build?); remove the cache folder named by 'kvo-run --version' and run again",
        status: ExitStatus.failure)

    /// Sends `request` and waits for the answer until `deadline`, when the
    /// helper is stopped and `step` (what the request does, in words) is
    /// said to have taken too long. A helper that died on an earlier request
    /// is started again once.
    func ask(
        _ request: RewriterRequest, deadline: Deadline, step: String = "rewriting the program"
    ) throws -> RewriterResponse {
        let message = RewriterWire.encode(request)
        var attempts = 0
        while true {
            attempts += 1
            if socket < 0 { try start() }
            switch exchange(message, deadline: deadline) {
            case .answer(.failed(let why)):
                throw SwiftProgram.Failure(message: why, status: ExitStatus.failure)
            case .answer(let answer):
                return answer
            case .timedOut:
                stop(killing: true)
                throw SwiftProgram.Failure(message: deadline.stopped(step), status: ExitStatus.failure)
            case .gone:
                break
            }
            let ending = stop()
            guard attempts < 2, ending != .signaled(SIGINT) else {
                throw SwiftProgram.Failure(
                    message:
                        "kvo-run's Swift rewriter (\(executable)) \(ChildProcess.describe(ending)) while reading this program; this is a bug in kvo-run: please report it with the program",
                    status: ExitStatus.failure)
            }
        }
    }

    private enum Exchange {
        case answer(RewriterResponse)
        /// The helper closed its socket, or answered what cannot be read.
        case gone
        /// The deadline passed first.
        case timedOut
    }

    /// One request and its answer, each part waited for (poll) no later
    /// than `deadline`: a helper busy on a slow request reads nothing more
    /// and writes nothing yet.
    private func exchange(_ message: [UInt8], deadline: Deadline) -> Exchange {
        var sent = 0
        while sent < message.count {
            guard waitFor(Int16(POLLOUT), deadline: deadline) else { return .timedOut }
            let count = message[sent...].withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return .gone }
            sent += count
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let framed = try? RewriterWire.unframe(buffer) {
                return (try? RewriterWire.decodeResponse(framed.payload)).map { .answer($0) } ?? .gone
            }
            guard waitFor(Int16(POLLIN), deadline: deadline) else { return .timedOut }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return .gone }
            buffer += chunk[..<count]
        }
    }

    /// Whether the socket became ready for `events` (or closed) before
    /// `deadline`; without one, waits as long as it takes.
    private func waitFor(_ events: Int16, deadline: Deadline) -> Bool {
        while true {
            // Whole milliseconds, rounded up (a limit of days fits an Int32 of them).
            let wait = deadline.remaining.map { Int32(min(($0 * 1000).rounded(.up), Double(Int32.max))) } ?? -1
            if wait == 0 { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // said by send or recv
        }
    }

    // MARK: The process

    private func start() throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw SwiftProgram.Failure(
                message: "cannot start kvo-run's Swift rewriter: \(String(cString: strerror(errno)))",
                status: ExitStatus.failure)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (Ctrl-C is for the program), default signals.
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&child, executable, &actions, &attributes, UnsafeMutablePointer(mutating: base), environ)
        }
        close(pair[1])
        guard spawned == 0 else {
            close(pair[0])
            throw SwiftProgram.Failure(
                message: "cannot start kvo-run's Swift rewriter \(executable): \(String(cString: strerror(spawned)))",
                status: ExitStatus.failure)
        }
        pid = child
        socket = pair[0]
    }

    /// Closes the helper's socket (it ends at end of input) and reaps it;
    /// `killing`: a helper still busy, stopped with its group first (it
    /// leads one, `start`), so that it does not finish a request nobody
    /// waits for.
    @discardableResult
    private func stop(killing: Bool = false) -> ChildProcess.Ending {
        guard socket >= 0 else { return .notStarted("not running") }
        close(socket)
        socket = -1
        defer { pid = 0 }
        if killing {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        return ChildProcess.wait(pid)
    }
}
