import KVOHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File access through libc: reading scenarios and walking folders is all the
/// tool needs, and it keeps Foundation out of start-up.
public enum Files {
    /// The largest scenario kvo-run reads, from a file or standard input. A
    /// source costs tens of bytes of memory per byte once lexed, parsed and
    /// compiled, and `/dev/zero` never ends: reading stops here with an error.
    public static let maxSourceBytes = 8 << 20

    public enum Failure: Error, CustomStringConvertible {
        case cannotRead(String, String)
        case cannotWrite(String, String)
        /// The file passed the limit (`maxSourceBytes` for a scenario).
        case tooLarge(String, Int)
        /// A byte sequence that is not UTF-8, at a line and column.
        case invalidUTF8(String, line: Int, column: Int, byte: UInt8)
        public var description: String {
            switch self {
            case .invalidUTF8(let path, let line, let column, _):
                return "\(path):\(line):\(column): error: \(message)"
            case .cannotRead(let path, let why): return "cannot read '\(path)': \(why)"
            case .cannotWrite(let path, let why): return "cannot write '\(path)': \(why)"
            case .tooLarge(let path, let limit):
                return
                    "cannot read '\(path)': it is larger than \(limit >> 20) MiB, the most kvo-run reads; split it into smaller files"
            }
        }

        /// What went wrong, without the `path:line:column:` a position adds.
        public var message: String {
            switch self {
            case .invalidUTF8(_, _, _, let byte):
                let hex = String(byte, radix: 16, uppercase: true)
                return "invalid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex)); "
                    + "scenarios are UTF-8: save the file as UTF-8"
            default: return description
            }
        }

        /// The file it is about.
        public var path: String {
            switch self {
            case .cannotRead(let path, _), .cannotWrite(let path, _), .tooLarge(let path, _): path
            case .invalidUTF8(let path, _, _, _): path
            }
        }

        /// Where in the file, for a problem with its bytes.
        public var position: (line: Int, column: Int)? {
            if case .invalidUTF8(_, let line, let column, _) = self { return (line, column) }
            return nil
        }

        /// A problem with the script's text (status 2), not with reaching the file (64).
        public var isScriptError: Bool {
            switch self {
            case .invalidUTF8, .tooLarge: true
            case .cannotRead, .cannotWrite: false
            }
        }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    // MARK: Names that are not UTF-8

    /// A file name's bytes may be anything but NUL and '/': a name that is
    /// not UTF-8 (an old Latin-1 file) must still be found, run and shown.
    /// Its bytes that are not UTF-8 travel inside the String as the scalars
    /// U+10FE00 + byte (private use, plane 16), turned back into the bytes
    /// by `system` for every call into the system and shown as `\x{FF}` by
    /// `shown`. (A name that really holds one of those 256 private-use
    /// characters is the one that cannot be reached.)
    static let rawByteBase: UInt32 = 0x10FE00

    /// A name read from the system (a folder entry, a resolved path).
    static func name(fromBytes bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let width = lead < 0x80 ? 1 : lead >= 0xF5 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            if width > 0, index + width <= bytes.count,
                let piece = String(validating: bytes[index..<(index + width)], as: UTF8.self)
            {
                scalars.append(contentsOf: piece.unicodeScalars)
                index += width
            } else {
                scalars.append(Unicode.Scalar(rawByteBase + UInt32(lead)) ?? "?")
                index += 1
            }
        }
        return String(scalars)
    }

    /// A path from the command line with its bytes: Swift's
    /// `CommandLine.arguments` replaced the bytes that are not UTF-8 by
    /// U+FFFD, which names no file; the raw argument it came from is found
    /// again and read as `name(fromBytes:)` does.
    public static func commandLinePath(_ argument: String) -> String {
        guard argument.unicodeScalars.contains("\u{FFFD}") else { return argument }
        for index in 0..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
            if String(decoding: bytes, as: UTF8.self) == argument { return name(fromBytes: bytes) }
        }
        return argument
    }

    /// `path` as the system's bytes, NUL-terminated, for open, stat and the rest.
    static func system(_ path: String) -> [CChar] {
        guard path.unicodeScalars.contains(where: { $0.value >= rawByteBase }) else { return Array(path.utf8CString) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if scalar.value >= rawByteBase && scalar.value <= rawByteBase + 0xFF {
                bytes.append(UInt8(truncatingIfNeeded: scalar.value - rawByteBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// `path` for people: each byte that is not UTF-8 as `\x{FF}`.
    public static func shown(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: { $0.value >= rawByteBase }) else { return path }
        var result = ""
        for scalar in path.unicodeScalars {
            if scalar.value >= rawByteBase && scalar.value <= rawByteBase + 0xFF {
                result += "\\x{" + String(scalar.value - rawByteBase, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What a stat mode is, in words, for "not a regular file" errors.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// Reads a scenario. `regularOnly` (golden tests) refuses anything but a
    /// regular file without blocking: opening a FIFO waits for a writer.
    public static func read(_ path: String, regularOnly: Bool = false, limit: Int = maxSourceBytes) throws -> String {
        let descriptor = open(system(path), O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw Failure.cannotRead(path, errorText(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure.cannotRead(path, errorText(errno)) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw Failure.cannotRead(path, "it is a directory") }
        if regularOnly && type != S_IFREG {
            throw Failure.cannotRead(path, "it is \(kind(of: info.st_mode)), not a regular file")
        }
        let expected = type == S_IFREG ? Int(info.st_size) : 0
        return try readAll(descriptor, name: path, sizeHint: expected, limit: limit)
    }

    /// Reads standard input as a scenario, up to `maxSourceBytes`.
    public static func readStandardInput() throws -> String {
        try readAll(0, name: "<stdin>", sizeHint: 0, limit: maxSourceBytes)
    }

    /// Everything `descriptor` holds, failing past `maximum` bytes (one byte
    /// more is read to tell "exactly the limit" from "more"). A UTF-8
    /// byte-order mark is skipped; invalid UTF-8 is an error at its line and
    /// column, rather than characters silently replaced.
    static func readAll(_ descriptor: Int32, name: String, sizeHint: Int, limit maximum: Int) throws -> String {
        if sizeHint > maximum { throw Failure.tooLarge(name, maximum) }
        let limit = maximum + 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(limit, max(sizeHint + 1, 1 << 16)))
        // As large as the file is said to be (a cached Swift program's run
        // reads seven small files: a 64 KiB chunk each was zeroed for nothing).
        // Standard input's size is not known (0): 64 KiB reads.
        var chunk = [UInt8](repeating: 0, count: sizeHint > 0 ? min(1 << 16, sizeHint + 1) : 1 << 16)
        while true {
            let want = min(chunk.count, limit - bytes.count)
            if want == 0 { throw Failure.tooLarge(name, maximum) }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, want) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.cannotRead(name, errorText(errno))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        if bytes.count > maximum { throw Failure.tooLarge(name, maximum) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        throw invalidUTF8(body, name: name)
    }

    /// Where the first byte that is not UTF-8 lies: lines as the lexer counts
    /// them, columns in Unicode scalars.
    static func invalidUTF8(_ bytes: ArraySlice<UInt8>, name: String) -> Failure {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = bytes.startIndex
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else if scalar != "\r" {
                    column += 1
                }
            case .emptyInput:
                return .invalidUTF8(name, line: line, column: column, byte: 0)
            case .error:
                return .invalidUTF8(name, line: line, column: column, byte: offset < bytes.endIndex ? bytes[offset] : 0)
            }
        }
    }

    /// Writes `text` to `path` so that a failure never leaves a half-written
    /// file where a whole one was: a regular file (or a new one) is written
    /// as a temporary file in the same folder, synced and renamed over it.
    /// Anything else (`/dev/full`, a FIFO) is written in place, never
    /// replaced. Every write, fsync and close is checked.
    public static func write(_ text: String, to path: String) throws {
        var target = path
        var info = stat()
        var exists = false
        if lstat(system(path), &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
            let resolved = realpath(system(path), nil)
        {
            // Through a symlink: replace what it points to, not the link.
            target = name(fromBytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
            free(resolved)
        }
        if stat(system(target), &info) == 0 {
            exists = true
            if (info.st_mode & S_IFMT) != S_IFREG {
                let descriptor = open(system(target), O_WRONLY | O_TRUNC | O_CLOEXEC)
                guard descriptor >= 0 else { throw Failure.cannotWrite(path, errorText(errno)) }
                try writeAll(text, to: descriptor, name: path, sync: false)
                return
            }
        }
        let folder = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
        var template = system(folder + "." + baseName(target) + ".tmp-XXXXXX")
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw Failure.cannotWrite(path, errorText(errno)) }
        let temporary = Array(template.prefix { $0 != 0 }) + [0]
        do {
            // mkstemp makes the file 0600: give it the old file's mode, or
            // what a new file would get under the umask.
            let mask = umask(0)
            umask(mask)
            let mode = exists ? info.st_mode & 0o7777 : 0o666 & ~mask
            if fchmod(descriptor, mode) != 0 { throw Failure.cannotWrite(path, errorText(errno)) }
            try writeAll(text, to: descriptor, name: path, sync: true)
            if rename(temporary, system(target)) != 0 { throw Failure.cannotWrite(path, errorText(errno)) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes all of `text` and closes `descriptor`, checking each step.
    private static func writeAll(_ text: String, to descriptor: Int32, name: String, sync: Bool) throws {
        var text = text
        var failure = text.withUTF8 { writeFully(UnsafeRawBufferPointer($0), to: descriptor) }
        if failure == 0 && sync && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 { throw Failure.cannotWrite(name, errorText(failure)) }
    }

    /// The folder kvo-run's executable is in (`/proc/self/exe`'s), where
    /// the installed share folder is found (`../share/kvo-run`).
    public static func executableFolder() -> String? {
        RuntimeCache.executablePath().map { String($0[..<($0.lastIndex(of: "/") ?? $0.endIndex)]) }
    }

    /// A new folder only this process uses, under $TMPDIR (else /tmp); nil
    /// when it cannot be made.
    static func temporaryFolder() -> String? {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/kvo-run.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) } != nil
        }
        guard made else { return nil }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a folder `temporaryFolder` (or `mkdtemp`) made and the files
    /// in it, never leaving it: the folder is opened without following a
    /// symlink (one put in its place is removed, not entered), and its
    /// entries are removed through that descriptor, so that no renamed or
    /// replaced path leads elsewhere. Empty sub-folders go too (kvo-run makes
    /// none with files in them there).
    static func removeFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            // A symlink (ELOOP) or a file where the folder was: only the name goes.
            if errno == ELOOP || errno == ENOTDIR { unlink(folder) }
            return
        }
        // fdopendir owns the descriptor from here (closedir closes it).
        if let handle = fdopendir(descriptor) {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." && unlinkat(descriptor, name, 0) != 0 && errno == EISDIR {
                    unlinkat(descriptor, name, AT_REMOVEDIR)
                }
            }
            closedir(handle)
        } else {
            close(descriptor)
        }
        rmdir(folder)
    }

    public static func exists(_ path: String) -> Bool { access(system(path), F_OK) == 0 }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(system(path), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A file's identity: the same file or folder reached by two paths
    /// (symlinks, `a/../a`) has one.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// What a walk for scenarios found.
    public struct Found {
        /// The scenarios, sorted, each file once.
        public var files: [String] = []
        /// Paths named on the command line that cannot be scenarios (a FIFO,
        /// a device), with why: reported as failures, never opened.
        public var rejected: [(path: String, why: String)] = []
    }

    /// Every file under `paths` whose name ends with `suffix`, sorted, each
    /// once (`find(_:accepting:)`, for every file so named).
    public static func find(_ paths: [String], suffix: String) -> Found {
        find(paths) { path, _ in path.hasSuffix(suffix) }
    }

    /// Every file under `paths` that `accepts` takes, sorted, each once.
    /// `accepts` is asked with the path and whether it was named directly
    /// (`kvo-run test` takes a named `X.swift` whatever is beside it, and
    /// one found in a folder only with its `X.out`). Folders are followed
    /// through symlinks but each is entered once (a symlink loop would
    /// otherwise make the walk exponential); in folders, only regular files
    /// count (a FIFO named X.kvo would block the reader). A name that cannot
    /// be stat'ed (a dangling symlink) is listed, so that reading it reports
    /// the error. A path named directly that is neither a folder nor a
    /// regular file is rejected.
    public static func find(_ paths: [String], accepting accepts: (_ path: String, _ named: Bool) -> Bool) -> Found {
        var found = Found()
        var seenFolders: Set<Identity> = []
        var seenFiles: Set<Identity> = []
        var files: [(path: String, identity: Identity?)] = []
        for path in paths {
            var info = stat()
            guard stat(system(path), &info) == 0 else {
                files.append((path, nil))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                walk(path, info, accepts: accepts, seenFolders: &seenFolders, into: &files)
            case S_IFREG:
                if accepts(path, true) { files.append((path, Identity(info))) }
            default:
                found.rejected.append(
                    (path, "it is \(kind(of: info.st_mode)), not a regular file; kvo-run test runs regular files only"))
            }
        }
        // Sorted first, so that of two names for one file the first is kept.
        for file in files.sorted(by: { $0.path < $1.path }) {
            if let identity = file.identity, !seenFiles.insert(identity).inserted { continue }
            if file.identity == nil, found.files.last == file.path { continue }
            found.files.append(file.path)
        }
        return found
    }

    private static func walk(
        _ root: String, _ rootInfo: stat, accepts: (String, Bool) -> Bool, seenFolders: inout Set<Identity>,
        into files: inout [(path: String, identity: Identity?)]
    ) {
        guard seenFolders.insert(Identity(rootInfo)).inserted else { return }
        var pending = [root]
        while let directory = pending.popLast() {
            guard let handle = opendir(system(directory)) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    Files.name(fromBytes: Array(raw.prefix { $0 != 0 }))
                }
                if name.hasPrefix(".") { continue }
                let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                var info = stat()
                guard stat(system(full), &info) == 0 else {
                    // Dangling symlink or unreadable: listed so the error shows.
                    if accepts(full, false) { files.append((full, nil)) }
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if seenFolders.insert(Identity(info)).inserted { pending.append(full) }
                case S_IFREG:
                    if accepts(full, false) { files.append((full, Identity(info))) }
                default:
                    continue  // FIFOs, sockets, devices: never scenarios
                }
            }
        }
    }

    /// Every file under `path` whose name ends with `suffix`, sorted.
    public static func find(under path: String, suffix: String) -> [String] {
        find([path], suffix: suffix).files
    }

    public static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
