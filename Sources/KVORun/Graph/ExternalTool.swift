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

    /// Runs `program` with `arguments` and waits; its exit status, or nil
    /// when it could not be started or was killed.
    public static func run(_ program: String, _ arguments: [String]) -> Int32? {
        let argv = ([program] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return posix_spawnp(&pid, program, nil, nil, UnsafeMutablePointer(mutating: base), environ)
        }
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        guard status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }
}
