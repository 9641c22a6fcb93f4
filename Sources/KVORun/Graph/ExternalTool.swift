#if canImport(Glibc)
import Glibc
#endif

/// Programs kvo-run hands work to when they are installed: Graphviz's `dot`
/// renders the observation graph as SVG. Run directly (posix_spawnp, no
/// shell), so file names are never interpreted.
public enum ExternalTool {
    /// The program's path on PATH, or nil when it is not installed.
    public static func find(_ name: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for folder in String(cString: path).split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// How a run of a program ended.
    public enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// It could not be started, or a signal ended it.
        case failed
        /// It ran past its time limit and was killed.
        case timedOut
    }

    /// Runs `program` with `arguments` and waits; its exit status, or nil
    /// when it could not be started or was killed.
    public static func run(_ program: String, _ arguments: [String]) -> Int32? {
        if case .exited(let status) = run(program, arguments, seconds: nil) { return status }
        return nil
    }

    /// Runs `program` with `arguments` and waits at most `seconds` (nil: no
    /// limit); past the limit the program is killed (SIGKILL) and reaped.
    public static func run(_ program: String, _ arguments: [String], seconds: Double?) -> Ending {
        let argv = ([program] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return posix_spawnp(&pid, program, nil, nil, UnsafeMutablePointer(mutating: base), environ)
        }
        guard spawned == 0 else { return .failed }
        var status: Int32 = 0
        if let seconds {
            // Polled: a child's exit cannot be waited for with a timeout
            // otherwise without a signal handler.
            var waited = 0.0
            let step = 0.01
            while true {
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid { break }
                if reaped < 0 && errno != EINTR { return .failed }
                if waited >= seconds {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    return .timedOut
                }
                usleep(useconds_t(step * 1_000_000))
                waited += step
            }
        } else {
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR { return .failed }
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        guard status & 0x7f == 0 else { return .failed }
        return .exited((status >> 8) & 0xff)
    }
}
