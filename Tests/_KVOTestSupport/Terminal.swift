import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Drives `kvo-run` in a pseudo-terminal, as a person at a keyboard would.
public final class Terminal {
    public let master: Int32
    public let pid: pid_t
    /// Everything the program has written so far.
    public private(set) var transcript = ""

    public init(arguments: [String] = [], environment: [String: String]) throws {
        guard let binary = CLI.binary else { throw CLI.Failure("kvo-run not built") }
        var master: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["TERM"] = "dumb"
        env.removeValue(forKey: "NO_COLOR")
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let pid = forkpty(&master, nil, nil, &size)
        if pid == 0 {
            execve(binary.path, argv, envp)
            _exit(127)
        }
        guard pid > 0 else { throw CLI.Failure("forkpty failed") }
        self.master = master
        self.pid = pid
    }

    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until `text` has appeared after `from` (an offset in the
    /// transcript), or fails after `timeout` seconds.
    @discardableResult
    public func expect(
        _ text: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if transcript.contains(text) { return true }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                transcript += String(decoding: buffer[0..<count], as: UTF8.self)
            }
        }
        if transcript.contains(text) { return true }
        Issue.record(
            "timed out waiting for \(text.debugDescription); got:\n\(transcript)", sourceLocation: sourceLocation)
        return false
    }

    /// Forgets what has been read, so the next `expect` looks only at new output.
    public func clear() { transcript = "" }

    /// Waits for the program to exit and returns its status.
    public func wait(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            // Keep draining so the child never blocks on a full terminal.
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) > 0 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { transcript += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
        }
        kill(pid, SIGKILL)
        return nil
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }
}
