#if canImport(Glibc)
import Glibc
#endif

/// What the cache of compiled Swift programs holds (`runtime-KEY/` folders,
/// one per runtime sources and toolchain; `programs/KEY/`, one per program
/// source, file name, runtime and kvo-run build), and its pruning.
///
/// Every rebuilt kvo-run, every new toolchain and every edited program
/// leaves entries no run asks for again: a runtime is 80 MB, a program about
/// 50 KB. Each entry's folder is touched when a run uses it, so its
/// modification time says when it was last used, and kvo-run prunes by that:
/// - after building a new runtime (a new kvo-run or toolchain), it removes
///   the runtimes past the `keptRuntimes` most recently used that no run
///   used for a day (a checkout's and an installed kvo-run may take turns,
///   and several checkouts may run their tests at once), with their programs;
/// - once a day, as it stores a program, it removes the runtimes no run used
///   for `runtimeDays` days but the most recent, the programs not used for
///   `programDays` days or whose runtime is gone, and the least recently
///   used past `keptPrograms`;
/// - `kvo-run cache clean` keeps only what this kvo-run uses with this
///   toolchain; `--all` removes everything.
/// Removing what another run uses at that moment costs that run its entry,
/// which it builds again: nothing is shared but by name.
struct CacheContents {
    let root: String

    static let keptRuntimes = 3
    static let runtimeDays = 7
    static let programDays = 30
    static let keptPrograms = 2000
    /// The file in a program's folder naming the runtime it was built for.
    static let runtimeRecord = "runtime"
    /// The file whose modification time says when programs were last pruned.
    static let prunedStamp = "pruned"

    struct Entry {
        let path: String
        let bytes: Int64
        /// When a run last used it (the folder's modification time).
        let lastUsed: Int
        /// For a program: the runtime folder it was built for, when recorded.
        var runtime: String? = nil
    }

    /// Notes that a run uses `folder` now.
    static func markUsed(_ folder: String) {
        _ = utimensat(AT_FDCWD, folder, nil, 0)
    }

    // MARK: Listing

    func runtimes() -> [Entry] {
        names(in: root).filter { $0.hasPrefix("runtime-") && !$0.contains(".building-") && !$0.contains(".damaged-") }
            .map {
                entry(root + "/" + $0)
            }
    }

    func programs() -> [Entry] {
        let folder = root + "/programs"
        return names(in: folder).map { name in
            var program = entry(folder + "/" + name)
            let record = program.path + "/" + Self.runtimeRecord
            if let text = try? Files.read(record, limit: 4096) {
                program.runtime = text.split(separator: "\n").first.map(String.init)
            }
            return program
        }
    }

    /// Build folders a run that was killed left behind, older than a day.
    func leftovers(now: Int) -> [String] {
        var found = names(in: root).filter { $0.contains(".building-") || $0.contains(".damaged-") }.map {
            root + "/" + $0
        }
        for program in names(in: root + "/programs") {
            let folder = root + "/programs/" + program
            found += names(in: folder).filter { $0.hasPrefix("building-") }.map { folder + "/" + $0 }
        }
        return found.filter { now - modificationTime($0) > 86_400 }
    }

    /// The bytes under `root`, every file counted once.
    func totalBytes() -> Int64 { Self.bytes(under: root, depth: 0) }

    // MARK: Pruning

    /// After `current` was built: the runtimes past `keptRuntimes` (least
    /// recently used first) and their programs go. Returns the bytes freed.
    @discardableResult
    func pruneAfterBuilding(_ current: String, now: Int = Int(time(nil))) -> Int64 {
        let others = runtimes().filter { $0.path != current }.sorted { $0.lastUsed > $1.lastUsed }
        let removed = others.dropFirst(Self.keptRuntimes - 1).filter { now - $0.lastUsed > 86_400 }
        return remove(runtimes: Array(removed))
    }

    /// Once a day (a stamp file says when it last ran): runtimes unused for
    /// `runtimeDays` days but the most recently used one, programs not used
    /// for `programDays` days or whose runtime is gone, the least recently
    /// used past `keptPrograms`, and dead build folders.
    @discardableResult
    func pruneDaily(now: Int = Int(time(nil))) -> Int64 {
        let stamp = root + "/" + Self.prunedStamp
        if Files.exists(stamp) && now - modificationTime(stamp) < 86_400 { return 0 }
        _ = try? SwiftProgram.writeFile("", to: stamp)
        let runtimes = runtimes().sorted { $0.lastUsed > $1.lastUsed }
        var freed = remove(
            runtimes: runtimes.dropFirst().filter { now - $0.lastUsed > Self.runtimeDays * 86_400 })
        let present = Set(self.runtimes().map { Files.baseName($0.path) })
        let programs = programs().sorted { $0.lastUsed > $1.lastUsed }
        for (index, program) in programs.enumerated()
        where index >= Self.keptPrograms || now - program.lastUsed > Self.programDays * 86_400
            || program.runtime.map { !present.contains($0) } ?? false
        {
            freed += program.bytes
            Self.removeEntry(program.path)
        }
        for folder in leftovers(now: now) { Self.removeEntry(folder) }
        return freed
    }

    /// Everything but `keeping` (this kvo-run's runtime with this toolchain,
    /// when there is one) and the programs this kvo-run built for it.
    func clean(keeping: String?, programsOf identity: String) -> (runtimes: Int, programs: Int, bytes: Int64) {
        let removedRuntimes = runtimes().filter { $0.path != keeping }
        var bytes: Int64 = 0
        for runtime in removedRuntimes {
            bytes += runtime.bytes
            Self.removeEntry(runtime.path)
        }
        var programCount = 0
        let keptName = keeping.map(Files.baseName)
        for program in programs() {
            let current =
                program.runtime == keptName && keptName != nil
                && Self.recordedIdentity(program.path) == identity
            if current { continue }
            bytes += program.bytes
            programCount += 1
            Self.removeEntry(program.path)
        }
        for folder in leftovers(now: Int.max) { Self.removeEntry(folder) }
        return (removedRuntimes.count, programCount, bytes)
    }

    /// Removes `runtimes` and the programs recorded as theirs.
    private func remove(runtimes: [Entry]) -> Int64 {
        guard !runtimes.isEmpty else { return 0 }
        var freed: Int64 = 0
        for runtime in runtimes {
            freed += runtime.bytes
            Self.removeEntry(runtime.path)
        }
        let names = Set(runtimes.map { Files.baseName($0.path) })
        for program in programs() where program.runtime.map(names.contains) ?? false {
            freed += program.bytes
            Self.removeEntry(program.path)
        }
        return freed
    }

    // MARK: Records

    /// What a stored program records beside it: its runtime's folder name,
    /// and the kvo-run build that compiled it.
    static func record(runtime: String, identity: String) -> String {
        Files.baseName(runtime) + "\n" + identity + "\n"
    }

    static func recordedIdentity(_ program: String) -> String? {
        guard let text = try? Files.read(program + "/" + runtimeRecord, limit: 4096) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 1 ? String(lines[1]) : nil
    }

    // MARK: Files

    private func entry(_ path: String) -> Entry {
        Entry(path: path, bytes: Self.bytes(under: path, depth: 0), lastUsed: modificationTime(path))
    }

    private func modificationTime(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_mtim.tv_sec) : 0
    }

    private func names(in folder: String) -> [String] {
        Self.names(in: folder)
    }

    static func names(in folder: String) -> [String] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes of the files under `path`, symlinks not followed. The
    /// cache's folders nest three deep at most (`module-cache` a few more):
    /// past 16 the rest is not counted rather than recursing without end.
    static func bytes(under path: String, depth: Int) -> Int64 {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        guard info.st_mode & S_IFMT == S_IFDIR else { return Int64(info.st_blocks) * 512 }
        guard depth < 16 else { return 0 }
        return names(in: path).reduce(Int64(info.st_blocks) * 512) {
            $0 + bytes(under: path + "/" + $1, depth: depth + 1)
        }
    }

    /// Removes a cache entry and all it holds, never following a symlink
    /// (one in the entry's place is removed, not entered): each folder is
    /// opened without following and emptied through its descriptor. In
    /// process: a cache of thousands of programs was seconds of `rm -rf`
    /// processes.
    static func removeEntry(_ path: String) {
        remove(path, in: AT_FDCWD, depth: 0)
    }

    private static func remove(_ name: String, in folder: Int32, depth: Int) {
        if unlinkat(folder, name, 0) == 0 || errno == ENOENT { return }
        // Deeper than any folder kvo-run makes: left, not recursed into.
        guard depth < 16 else { return }
        let descriptor = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // fdopendir owns the descriptor from here (closedir closes it).
        guard let handle = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        var names: [String] = []
        while let entry = readdir(handle) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName != "." && entryName != ".." { names.append(entryName) }
        }
        for entryName in names { remove(entryName, in: descriptor, depth: depth + 1) }
        closedir(handle)
        unlinkat(folder, name, AT_REMOVEDIR)
    }

    /// "81.2 MB", "50 KB": decimal units, as `du -h --si` and Finder say.
    static func describe(bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        let rounded = value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
        return rounded + " " + units[unit]
    }
}
