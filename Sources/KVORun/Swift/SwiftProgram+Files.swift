import KVOCore
import KVOHost
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

extension SwiftProgram {
    /// Writes a file of the program's own folder: no temporary copy and no
    /// fsync, which `Files.write` spends on files that must survive a crash.
    static func writeFile(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(
                message: "cannot write \(path): \(String(cString: strerror(errno)))", status: ExitStatus.failure)
        }
        var text = text
        let failure = text.withUTF8 { writeFully(UnsafeRawBufferPointer($0), to: descriptor) }
        close(descriptor)
        if failure != 0 {
            throw Failure(
                message: "cannot write \(path): \(String(cString: strerror(failure)))", status: ExitStatus.failure)
        }
    }
}

extension SwiftProgram {
    // MARK: Files

    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw Failure(
                    message: "cannot create \(current): \(String(cString: strerror(errno)))",
                    status: ExitStatus.failure)
            }
        }
    }

    static func removeTree(_ path: String) {
        _ = ChildProcess.run("rm", ["-rf", path])
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(cString: buffer) + "/" + path
    }
}
