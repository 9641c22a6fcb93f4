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
        // Usually there already: one call, no path split into components.
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
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

    /// A new folder `prefix` + six random characters, made by `mkdtemp`
    /// (mode 0700): made here and now, never one that was there before. A
    /// folder named by the process id was followed when something was
    /// already at that name (a planted symlink, whose target's files were
    /// then written over and deleted) and shared by two runs with one pid
    /// (containers sharing a cache volume).
    static func makeFreshFolder(_ prefix: String) throws -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) } != nil
        }
        guard made else {
            let parent = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? "."
            throw Failure(
                message:
                    "cannot create a folder in \(parent): \(String(cString: strerror(errno))); make it writable or set XDG_CACHE_HOME to a folder of your own",
                status: ExitStatus.failure)
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws unless `path` is a real folder (not a symlink to one) of this
    /// user's: a cache entry kvo-run writes into and deletes from, which a
    /// symlink would turn into somebody else's folder.
    static func requireOwnFolder(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Failure(
                message: "cannot use \(path): \(String(cString: strerror(errno)))", status: ExitStatus.failure)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            throw Failure(
                message:
                    "\(path) is not a folder of kvo-run's cache (a symlink, a file or another user's folder); remove it, and the next run makes it again",
                status: ExitStatus.failure)
        }
    }

    /// A compiler's log, its bytes decoded leniently (at most `limit` of
    /// them): swiftc quotes a source line cut at a byte (`10²` gives one byte
    /// of `²`), and a strict decoding dropped the whole log, leaving an
    /// error with nothing after it.
    static func readLog(_ path: String, limit: Int = 1 << 20) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes.prefix(limit), as: UTF8.self)
    }

    /// Why a compiler that failed printed nothing, when the file system
    /// says: the disk holding `folder` is full (its log could not be written
    /// either), or it is read-only.
    static func emptyLogReason(_ folder: String) -> String? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        if info.f_bavail == 0 || info.f_favail == 0 {
            return
                "the disk holding \(folder) is full: free some space there, or set XDG_CACHE_HOME to a folder on another disk"
        }
        if info.f_flag & UInt(ST_RDONLY) != 0 {
            return "\(folder) is on a read-only disk: set XDG_CACHE_HOME to a writable folder of your own"
        }
        return nil
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
