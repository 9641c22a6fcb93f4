#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File access through libc: reading scenarios and walking folders is all the
/// tool needs, and it keeps Foundation out of start-up.
public enum Files {
    public enum Failure: Error, CustomStringConvertible {
        case cannotRead(String, String)
        case cannotWrite(String, String)
        public var description: String {
            switch self {
            case .cannotRead(let path, let why): return "cannot read '\(path)': \(why)"
            case .cannotWrite(let path, let why): return "cannot write '\(path)': \(why)"
            }
        }
    }

    public static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else { throw Failure.cannotRead(path, String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes += chunk[0..<count] }
            if count < chunk.count {
                if ferror(file) != 0 { throw Failure.cannotRead(path, "read error") }
                break
            }
        }
        if isDirectory(path) { throw Failure.cannotRead(path, "it is a directory") }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func readStandardInput() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(0, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "wb") else { throw Failure.cannotWrite(path, String(cString: strerror(errno))) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        if !bytes.isEmpty && fwrite(bytes, 1, bytes.count, file) != bytes.count {
            throw Failure.cannotWrite(path, "write error")
        }
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every file under `path` whose name ends with `suffix`, sorted.
    public static func find(under path: String, suffix: String) -> [String] {
        if !isDirectory(path) { return path.hasSuffix(suffix) ? [path] : [] }
        var results: [String] = []
        var pending = [path]
        while let directory = pending.popLast() {
            guard let handle = opendir(directory) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                if isDirectory(full) {
                    pending.append(full)
                } else if name.hasSuffix(suffix) {
                    results.append(full)
                }
            }
        }
        return results.sorted()
    }

    public static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
