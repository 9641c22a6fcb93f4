import KVOCore
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

/// The runtime a compiled program links and the rewriter helper beside it
/// (SPEC §11.0), built once per toolchain and version of their sources into
/// the cache's `runtime-KEY/`: where the sources are, what they are compiled
/// with, the key, and the one-time build (said at a terminal, interrupted
/// cleanly by Ctrl-C, moved into place only when whole). The cache's place
/// is given by the caller (`cacheRoot()` reads it, at the route's entry).
enum RuntimeCache {
    // MARK: The runtime

    /// The modules of the runtime, in build order: each is compiled from
    /// the folder of that name, against the ones before it.
    static let runtimeModules = ["KVOCore", "KVOOutput", "KVOFoundation"]

    /// The folder holding the runtime's sources, a folder per module (the
    /// rewriter helper's among them).
    static func runtimeSources() -> String? {
        // Empty means unset, as for any variable (`KVO_RUNTIME_SOURCES= kvo-run`).
        if let named = environmentValue("KVO_RUNTIME_SOURCES") { return named }
        var candidates: [String] = []
        if let executable = executablePath() {
            let bin = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
            candidates.append(bin + "/../share/kvo-run/runtime")
        }
        // Sources/KVORun/Swift/RuntimeCache.swift → Sources
        var sources = #filePath
        for _ in 0..<3 {
            if let slash = sources.lastIndex(of: "/") { sources = String(sources[..<slash]) }
        }
        candidates.append(sources)
        return candidates.first { folder in sourceModules.allSatisfy { Files.isDirectory(folder + "/" + $0) } }
    }

    /// Every folder of sources the one-time build compiles.
    static var sourceModules: [String] { runtimeModules + rewriterModules }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(cString: buffer)
    }

    /// Where the cache is: `$XDG_CACHE_HOME/kvo-run` when that is absolute (a
    /// relative one is ignored, as the XDG rules say), else
    /// `$HOME/.cache/kvo-run`, else the user's home from the password
    /// database: never a shared temporary folder (`/tmp/.cache/kvo-run`, where
    /// another user could plant the cache a program is compiled into). Empty
    /// when none of these names a place (`checkedCacheRoot` then says what to set).
    static func cacheRoot() -> String {
        if let xdg = environmentValue("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/kvo-run" }
        if let home = environmentValue("HOME"), home.hasPrefix("/") { return home + "/.cache/kvo-run" }
        if let user = getpwuid(geteuid()), let directory = user.pointee.pw_dir {
            let home = String(cString: directory)
            if home.hasPrefix("/") && home != "/" { return home + "/.cache/kvo-run" }
        }
        return ""
    }

    /// A variable of the environment, nil when unset or empty (an empty one
    /// means unset, as the shell's `VAR= command` intends).
    static func environmentValue(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The cache a run uses (`cacheRoot()`), made when missing and checked:
    /// a folder of this user's that nobody else can write (another user's,
    /// or one others can write, could hold a planted program or runtime).
    /// A cache that cannot be written (a read-only volume) is not refused:
    /// the run builds in a private temporary folder instead (`mkdtemp` under
    /// `$TMPDIR`, mode 0700), the read-only cache's runtimes linked in, and
    /// the folder is removed when kvo-run ends.
    static func checkedCacheRoot() throws -> String {
        if let folder = temporaryCacheFolder { return folder }
        let root = cacheRoot()
        guard !root.isEmpty else {
            throw SwiftProgram.Failure(
                message:
                    "kvo-run has no place for its cache of compiled Swift programs: set XDG_CACHE_HOME (or HOME) to an absolute folder of your own",
                status: ExitStatus.failure)
        }
        // The folder holding it, when another user's (a `.cache` somebody made
        // in a shared place), could swap the cache for theirs at any time.
        let parent = root.lastIndex(of: "/").map { String(root[..<$0]) } ?? "/"
        var holder = stat()
        // (A sticky folder others can write, /tmp's kind, lets nobody rename
        // what is not theirs.)
        if stat(parent.isEmpty ? "/" : parent, &holder) == 0,
            (holder.st_uid != geteuid() && holder.st_uid != 0)
                || (holder.st_mode & S_IWOTH != 0 && holder.st_mode & S_ISVTX == 0)
        {
            throw SwiftProgram.Failure(
                message:
                    "kvo-run's cache would be in \(parent), which another user owns or everyone can write; set XDG_CACHE_HOME (or HOME) to a folder of your own",
                status: ExitStatus.failure)
        }
        let made = (try? SwiftProgram.makeDirectories(root)) != nil
        var info = stat()
        // lstat: a symlink at the cache's place is somebody's redirection.
        if lstat(root, &info) == 0 {
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            let othersWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
            if !isFolder || info.st_uid != geteuid() || othersWrite {
                let why =
                    !isFolder
                    ? "is not a folder (a symlink or a file)"
                    : info.st_uid != geteuid() ? "belongs to another user" : "can be written by other users"
                throw SwiftProgram.Failure(
                    message:
                        "kvo-run's cache \(root) \(why), so a program compiled there could be replaced; set XDG_CACHE_HOME (or HOME) to a folder of your own, or make it yours alone (chmod go-w)",
                    status: ExitStatus.failure)
            }
        }
        if made && access(root, W_OK) == 0 && Self.canWrite(in: root) { return root }
        return try temporaryCache(beside: root)
    }

    /// Whether `folder` (this user's, `access` having said yes by its mode)
    /// can really be written: its times set to now, which a read-only
    /// volume refuses (EROFS). A folder made and removed as the probe cost
    /// every run 250 µs on ext4; setting the times, 3 µs.
    private static func canWrite(in folder: String) -> Bool {
        utimensat(AT_FDCWD, folder, nil, 0) == 0
    }

    /// The private temporary cache of a run whose cache cannot be written,
    /// removed when kvo-run ends; made once per process.
    nonisolated(unsafe) private static var temporaryCacheFolder: String?

    /// Removes the private temporary cache, if this run made one.
    static func removeTemporaryCache() {
        guard let folder = temporaryCacheFolder else { return }
        temporaryCacheFolder = nil
        SwiftProgram.removeTree(folder)
    }

    private static func temporaryCache(beside root: String) throws -> String {
        if let folder = temporaryCacheFolder { return folder }
        guard let folder = Files.temporaryFolder() else {
            throw SwiftProgram.Failure(
                message:
                    "kvo-run's cache \(root) cannot be written, and no private folder could be made in the temporary folder instead; set XDG_CACHE_HOME to a writable folder of your own",
                status: ExitStatus.failure)
        }
        temporaryCacheFolder = folder
        // The compilers' own module cache ($XDG_CACHE_HOME/clang) there too:
        // they inherit kvo-run's environment.
        setenv("XDG_CACHE_HOME", folder, 1)
        atexit { RuntimeCache.removeTemporaryCache() }
        // The read-only cache's runtimes, used where they are (not built again).
        if let handle = opendir(root) {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix("runtime-") && !name.contains(".building-") {
                    symlink(root + "/" + name, folder + "/" + name)
                }
            }
            closedir(handle)
        }
        return folder
    }

    /// What the runtime is compiled with. `-enforce-exclusivity=unchecked`:
    /// the runtime's own accesses are checked where they are developed (the
    /// package's checked lane, `make test-checked`, runs KVOCore with the
    /// checks), and in a compiled program they cost about a fifth of every
    /// notifying set (Benchmarks/README.md has the counts). Programs keep
    /// Swift's checks of their own code. Not the package's other unsafe flag,
    /// `-assume-single-threaded`: a program may use threads.
    static let runtimeFlags =
        ["-O", "-wmo", "-parse-as-library", "-swift-version", "5", "-enforce-exclusivity=unchecked"]
        + metadataAccessorFlags

    /// Metadata through accessors, for the runtime and programs alike, as in
    /// kvo-run's own release build: a generic type's metadata made from its
    /// mangled name has the Swift runtime look its Hashable (or other)
    /// conformance up by scanning every conformance record of the process,
    /// the static standard library's and Foundation's included, once per new
    /// key type.
    static let metadataAccessorFlags = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]

    /// How long the one-time build may take, in seconds: 15 minutes. It is
    /// shared by every program (and takes about a minute, 90 s on a loaded
    /// 2-core machine), so a run's `--timeout` (or `kvo-run test`'s 20 s)
    /// does not bound it: a short limit would make the first build fail
    /// every time. Its own bound, far above any real build, still stops a
    /// compiler that hangs; docs/cli.md says so where `--timeout` is.
    static let buildLimit = 15 * 60.0

    /// The runtime folders whose build this kvo-run stopped at `buildLimit`,
    /// with what was said: not tried again by the same process (`kvo-run
    /// test` would wait the limit out for every Swift scenario).
    nonisolated(unsafe) private static var stoppedBuilds: [String: String] = [:]

    /// The compiled runtime for `swiftc`, and the rewriter helper beside it
    /// (`kvo-rewriter`), built on first use: about a minute, which `say`
    /// is told about as it starts and ends (at a terminal). `deadline` is
    /// the run's, for asking the toolchain its version; the build itself
    /// is bounded by `buildLimit` (a parameter for the tests).
    static func runtimeDirectory(
        swiftc: String, cache: String, deadline: Deadline = .none, buildLimit: Double = buildLimit,
        say: ((String) -> Void)? = nil
    ) throws -> String {
        guard let sources = runtimeSources() else {
            throw SwiftProgram.Failure(
                message:
                    "the sources of the Swift runtime (\(sourceModules.joined(separator: ", "))) are not installed; reinstall kvo-run with 'make install' or set KVO_RUNTIME_SOURCES to the Sources folder of its checkout",
                status: ExitStatus.scriptErrors)
        }
        // KVO_RUNTIME_SOURCES names a folder as it is: one without a module
        // would compile part of the runtime.
        if let missing = sourceModules.first(where: { !Files.isDirectory(sources + "/" + $0) }) {
            throw SwiftProgram.Failure(
                message:
                    "the Swift runtime's sources in \(sources) have no \(missing) folder; set KVO_RUNTIME_SOURCES to the Sources folder of a kvo-run checkout (it holds \(sourceModules.joined(separator: ", ")))",
                status: ExitStatus.scriptErrors)
        }
        // Listed once: the key hashes what the build compiles (listing the
        // sources again for the key cost a cached run a million instructions).
        let files = runtimeFiles(sources)
        let helperFiles = rewriterFiles(sources)
        let directory = try runtimeDirectory(
            sources: sources, files: Array(files.joined()) + helperFiles, swiftc: swiftc, cache: cache,
            deadline: deadline)
        let last = "/lib" + (runtimeModules.last ?? "") + ".so"
        let state = installedState(directory)
        if state == .intact {
            // When it was last used, for pruning (CacheContents).
            CacheContents.markUsed(directory)
            return directory
        }
        if let said = stoppedBuilds[directory] {
            throw SwiftProgram.Failure(message: said, status: ExitStatus.failure)
        }
        let host = try Toolchain.hostModules(swiftc: swiftc)
        let started = Clock.now()
        let bound = Deadline(seconds: buildLimit)
        say?(
            "kvo-run: building its Swift runtime and rewriter with \(swiftc) (once per toolchain, one to two minutes)…\n"
        )
        try SwiftProgram.makeDirectories(cache)
        // Built beside, then moved into place: two runs at once never see
        // half a runtime, and an interrupted build leaves nothing to use.
        // Fresh and this run's alone (mkdtemp), as a program's (ProgramCache.store).
        let building = try SwiftProgram.makeFreshFolder(directory + ".building-")
        // `rm -rf` removes a symlink put in its place, never what it points to.
        defer { SwiftProgram.removeTree(building) }
        // mkdtemp's 0700, as the runtime folder's always were before.
        chmod(building, 0o755)
        // Ctrl-C stops the compilers (they start with it at its default, and
        // kvo-run passes it on to the step it waits for), not kvo-run, which
        // then says so and removes what was half built.
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        let log = building + "/build.log"
        // The helper compiles on one core while the runtime takes the other.
        let helperLog = building + "/rewriter.log"
        let helper = try startLogged(
            [swiftc]
                + rewriterArguments(
                    host: host, files: helperFiles.sorted(), moduleCache: cache + "/module-cache",
                    output: building + "/" + rewriterName), log: helperLog)
        var helperEnding: ChildProcess.Ending?
        defer {
            // Its whole group: the driver's swift-frontend too.
            if helperEnding == nil { ChildProcess.stop(helper, group: true) }
        }
        // A step stopped at the bound: said once, remembered for this process.
        func check(_ ending: ChildProcess.Ending, what: String, log: String) throws {
            do {
                try checkStep(ending, what: what, swiftc: swiftc, log: log, limit: buildLimit)
            } catch let failure as SwiftProgram.Failure where ending == .timedOut {
                stoppedBuilds[directory] = failure.message
                throw failure
            }
        }
        // Each module compiled once, to an object linked twice: into its own
        // library (with Swift's shared libraries, for any program) and into
        // the program host or libKVORuntime.so (see runtimeLibrary).
        for (module, moduleFiles) in zip(runtimeModules, files.map { $0.sorted() }) {
            try compileStep(
                swiftc, bound: bound, check: check,
                runtimeFlags + [
                    "-c", "-I", building, "-module-name", module, "-emit-module", "-emit-module-path",
                    building + "/\(module).swiftmodule", "-o", building + "/\(module).o",
                ] + moduleFiles, log: log)
        }
        for (index, module) in runtimeModules.enumerated() {
            // Each library links the ones before it, found at run time in
            // the runtime's own folder.
            let linked = runtimeModules[..<index].map { "-l" + $0 }
            try compileStep(
                swiftc, bound: bound, check: check,
                ["-emit-library", "-module-name", module, building + "/\(module).o", "-L", building] + linked + [
                    "-Xlinker", "-rpath", "-Xlinker", directory, "-o", building + "/lib\(module).so",
                ], log: log)
        }
        runtimeLibrary(swiftc: swiftc, building: building, log: log, bound: bound)
        // A Ctrl-C during that link, which may fail without stopping the build.
        if ChildProcess.interruptedDuringRun { try check(.signaled(SIGINT), what: "the Swift runtime", log: log) }
        for module in runtimeModules {
            unlink(building + "/\(module).o")
            unlink(building + "/\(module).autolink")
        }
        let waited = ChildProcess.supervise(helper, deadline: bound, group: true)
        helperEnding = waited
        // A Ctrl-C as it ended: stopped as if during it.
        let ending = ChildProcess.interruptedDuringRun ? .signaled(SIGINT) : waited
        try check(ending, what: "kvo-run's Swift rewriter", log: helperLog)
        try? SwiftProgram.writeFile(sizesRecord(building), to: building + "/" + sizesName)
        // A damaged runtime is moved aside (into a fresh folder of its own,
        // which the rename replaces) and removed once the new one is in place.
        var aside: String?
        if state == .damaged, let folder = try? SwiftProgram.makeFreshFolder(directory + ".damaged-") {
            aside = rename(directory, folder) == 0 ? folder : nil
            if aside == nil { rmdir(folder) }
        }
        defer { if let aside { SwiftProgram.removeTree(aside) } }
        if rename(building, directory) != 0 && installedState(directory) != .intact {
            throw SwiftProgram.Failure(
                message: "cannot store the Swift runtime in \(directory): \(String(cString: strerror(errno)))",
                status: ExitStatus.failure)
        }
        say?("kvo-run: done in \(Int((Clock.now() - started).rounded())) s\n")
        // A new runtime: a new kvo-run or toolchain, whose predecessors'
        // runtimes (80 MB each) no run may ask for again.
        CacheContents(root: cache).pruneAfterBuilding(directory)
        return directory
    }

    /// The folder of the runtime this kvo-run builds from `sources` with
    /// `swiftc`, built or not.
    static func runtimeDirectory(
        sources: String, files: [String]? = nil, swiftc: String, cache: String, deadline: Deadline = .none
    ) throws -> String {
        let key = runtimeKey(
            sources: sources, files: files ?? allSourceFiles(sources),
            toolchain: try Toolchain.version(swiftc, cache: cache, deadline: deadline), cache: cache)
        return cache + "/runtime-" + key
    }

    /// The file of a runtime's folder recording its files' sizes as built.
    static let sizesName = "sizes"

    /// The files whose sizes are recorded: what a program loads and runs.
    static var recordedFiles: [String] {
        runtimeModules.map { "lib\($0).so" } + ["libKVORuntime.so", ProgramHost.name, rewriterName]
    }

    /// "NAME SIZE" lines for the recorded files `folder` holds.
    static func sizesRecord(_ folder: String) -> String {
        recordedFiles.compactMap { name in
            var info = stat()
            return stat(folder + "/" + name, &info) == 0 ? "\(name) \(info.st_size)\n" : nil
        }.joined()
    }

    enum InstalledState { case missing, intact, damaged }

    /// Whether the runtime in `directory` is there and whole: each recorded
    /// file of the size it was built with. A library or the rewriter cut
    /// short (a full disk, a crash) gave a segfault, SIGBUS or "Exec format
    /// error" on every run; it is built again instead. A runtime built by an
    /// earlier kvo-run has no record: its sizes are recorded now rather than
    /// rebuilding it (a minute), so that damage from now on is seen.
    static func installedState(_ directory: String) -> InstalledState {
        let last = "lib" + (runtimeModules.last ?? "") + ".so"
        guard Files.exists(directory) else { return .missing }
        guard let record = try? Files.read(directory + "/" + sizesName) else {
            guard Files.exists(directory + "/" + last), Files.exists(directory + "/" + rewriterName) else {
                return .damaged
            }
            try? SwiftProgram.writeFile(sizesRecord(directory), to: directory + "/" + sizesName)
            return .intact
        }
        let recorded = record.split(separator: "\n").compactMap { line -> (String, Int64)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let size = Int64(parts[1]) else { return nil }
            return (String(parts[0]), size)
        }
        guard recorded.contains(where: { $0.0 == last }), recorded.contains(where: { $0.0 == rewriterName }) else {
            return .damaged
        }
        for (name, size) in recorded {
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0, Int64(info.st_size) == size else { return .damaged }
        }
        return .intact
    }

    /// Starts a build step in the background, its output into `log`.
    private static func startLogged(_ command: [String], log: String) throws -> pid_t {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        guard let program = command.first else {
            throw SwiftProgram.Failure(message: "no command", status: ExitStatus.failure)
        }
        // In a group of its own, stopped with what it starts; no input.
        switch ChildProcess.start(
            program, Array(command.dropFirst()), output: descriptor >= 0 ? descriptor : nil, ownGroup: true,
            standardInput: "/dev/null")
        {
        case .success(let pid): return pid
        case .failure(let failure):
            throw SwiftProgram.Failure(message: "cannot run \(program): \(failure.reason)", status: ExitStatus.failure)
        }
    }

    /// Throws unless a build step ended well: an interruption is said as
    /// one, a step stopped at the build's bound (`limit` seconds) as one, a
    /// failure with the compiler's own messages.
    static func checkStep(
        _ ending: ChildProcess.Ending, what: String, swiftc: String, log: String, limit: Double = buildLimit
    ) throws {
        switch ending {
        case .exited(0):
            return
        case .signaled(SIGINT):
            throw SwiftProgram.Failure(
                message:
                    "interrupted (Ctrl-C) while building \(what); nothing was kept, and the next Swift program builds it again",
                status: ExitStatus.failure)
        case .timedOut:
            let minutes = limit >= 60 ? "\(SwiftProgram.formatSeconds((limit / 60).rounded())) minutes" : nil
            throw SwiftProgram.Failure(
                message:
                    "building \(what) with \(swiftc) took longer than \(minutes ?? SwiftProgram.formatSeconds(limit) + " s") and was stopped (the one-time build's own limit; it usually takes about a minute); nothing was kept: check that \(swiftc) compiles a one-line Swift file, then run again",
                status: ExitStatus.failure)
        case .exited, .signaled, .notStarted:
            var text = SwiftProgram.readLog(log)
            while text.hasSuffix("\n") { text.removeLast() }
            throw SwiftProgram.Failure(
                message: "building \(what) with \(swiftc) failed: the compiler \(ChildProcess.describe(ending))"
                    + (text.isEmpty ? " and printed nothing" : ":\n" + text),
                status: ExitStatus.failure)
        }
    }

    /// The Swift files of each runtime module under `sources`, module by
    /// module, in the order the folders list them: a cached run needs no
    /// order (`runtimeKey`'s stamp does not depend on it), the build and the
    /// key's hash of the text sort them.
    static func runtimeFiles(_ sources: String) -> [[String]] {
        runtimeModules.map { sourceFiles(under: sources + "/" + $0) }
    }

    /// The rewriter helper's Swift files under `sources`, in no order.
    static func rewriterFiles(_ sources: String) -> [String] {
        rewriterModules.flatMap { sourceFiles(under: sources + "/" + $0) }
    }

    /// Every file the one-time build compiles: what the cache key hashes.
    static func allSourceFiles(_ sources: String) -> [String] {
        Array(runtimeFiles(sources).joined()) + rewriterFiles(sources)
    }

    /// Swift's static libraries that `import Foundation` brings in (and the
    /// standard library's implicit imports), which the program host (or
    /// libKVORuntime.so) holds whole.
    static let staticLibraries = [
        "swiftCore", "swift_Concurrency", "swift_StringProcessing", "swift_RegexParser", "swiftSwiftOnoneSupport",
        "swiftGlibc", "swift_Builtin_float", "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime",
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationICU",
        "_FoundationCShims", "_FoundationCollections", "CoreFoundation",
    ]

    /// The program host (`ProgramHost`), or where it does not link,
    /// libKVORuntime.so: the runtime and the whole of Swift's static
    /// standard library and Foundation in one shared library, its internal
    /// references bound when it is linked (`-Bsymbolic`). A program that
    /// imports only the runtime is linked for the host, or against the
    /// library alone. Its start-up then loads one library with no symbols to
    /// look up, instead of fifteen (the standard library, Foundation and
    /// its parts, ICU, dispatch) whose symbol relocations cost a Foundation
    /// program about 4 ms of CPU before `main`: a cached program starts in
    /// about half the time (Benchmarks/README.md, "Measurement history"),
    /// and the link needs no autolink step; the host saves the library's
    /// relocations too. The host holds all the library does, so the library
    /// is linked only when the host is not (80 MB less a runtime).
    /// (`--allow-multiple-definition`: the standard library and the
    /// concurrency library each carry a copy of the threading library's
    /// `fatal`.) Built once per runtime, about a second; when the toolchain
    /// has no static libraries or lld, or both links fail, there is neither
    /// and every program links against Swift's shared libraries (CompileJobs).
    static func runtimeLibrary(swiftc: String, building: String, log: String, bound: Deadline) {
        guard Toolchain.hasLLD(swiftc), let bin = Toolchain.bin(swiftc) else { return }
        let staticFolder = bin + "/../lib/swift_static/linux"
        let libraries = staticLibraries.map { staticFolder + "/lib\($0).a" }
        let swiftrt = staticFolder + "/x86_64/swiftrt.o"
        guard libraries.allSatisfy({ Files.exists($0) }), Files.exists(swiftrt) else {
            return
        }
        let objects = runtimeModules.map { building + "/\($0).o" }
        // The C++ library as the library would link it, the plain way second.
        for variant in [runtimeLibraryStartFlags, ["-lstdc++"]] {
            if ProgramHost.build(
                clang: bin + "/clang", swiftrt: swiftrt, objects: objects, libraries: libraries, startFlags: variant,
                building: building, log: log, bound: bound)
            {
                return
            }
            if ChildProcess.interruptedDuringRun || bound.hasPassed { return }
        }
        let arguments =
            [
                "-fuse-ld=lld", "-shared", "-o", building + "/libKVORuntime.so", swiftrt, "-Wl,--whole-archive",
            ] + objects + libraries + [
                "-Wl,--no-whole-archive", "-lm", "-ldl", "-lpthread", "-lutil", "-Wl,-Bsymbolic",
                "-Wl,--allow-multiple-definition", "-Wl,--build-id",
            ]
        // Stopped at the bound, it is simply not there; the next step says why.
        for variant in [runtimeLibraryStartFlags, ["-lstdc++"]] {
            let ending = ProgramCompiler.runStep([bin + "/clang"] + arguments + variant, log: log, deadline: bound)
            if ending == .exited(0) { return }
            unlink(building + "/libKVORuntime.so")
            // Only a link that failed is tried the plain way.
            guard case .exited = ending, !ChildProcess.interruptedDuringRun else { return }
        }
    }

    /// How libKVORuntime.so is linked so that a program loading it starts
    /// fast; a toolchain or C library that cannot link it so gets the plain
    /// link (`-lstdc++`). Measured on a cached `startup.swift` (callgrind,
    /// Benchmarks/README.md "Issue 43, a cached program's start"): 5.15
    /// million instructions before, 2.87 million with both.
    /// - The C++ library linked in, its symbols kept inside
    ///   (`--exclude-libs`): the shared libstdc++ made 1.9 million of the
    ///   loader's instructions looking up its own symbols.
    /// - The relative relocations packed (`DT_RELR`, glibc 2.36 and later:
    ///   an older loader refuses the library, so they are asked only of a
    ///   newer one): 78,000 of them, applied from a bitmap instead of one
    ///   24-byte record each.
    static let runtimeLibraryStartFlags: [String] = {
        var flags = ["-Wl,-Bstatic", "-lstdc++", "-Wl,-Bdynamic", "-Wl,--exclude-libs,libstdc++.a"]
        if glibcHasPackedRelocations { flags.append("-Wl,-z,pack-relative-relocs") }
        return flags
    }()

    /// Whether this process's C library (the one a program built here
    /// loads) applies packed relative relocations: glibc 2.36 or later.
    static var glibcHasPackedRelocations: Bool {
        // "glibc 2.36"; another C library has no answer and gets none.
        var buffer = [CChar](repeating: 0, count: 64)
        let length = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
        guard length > 0, length <= buffer.count else { return false }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix("glibc ") else { return false }
        let parts = text.dropFirst(6).split(separator: ".").map { Int($0) }
        guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return false }
        return major > 2 || (major == 2 && minor >= 36)
    }

    /// The `.swift` files under `folder` (the runtime's sources), in no
    /// order. Not `Files.find`, whose guard against symlink loops (a set of
    /// the folders' identities) cost a tenth of a cached program's work in
    /// kvo-run on its first use alone: sub-folders are followed to a depth of
    /// eight instead.
    static func sourceFiles(under folder: String, depth: Int = 0) -> [String] {
        guard depth < 8, let handle = opendir(folder) else { return [] }
        var files: [String] = []
        var folders: [String] = []
        // The name's bytes are looked at before a String is made of them:
        // only the paths kept become Strings.
        let swiftSuffix = Array(".swift".utf8)
        while let entry = readdir(handle) {
            var type = Int(entry.pointee.d_type)
            var isSwift = false
            let path: String? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 })
                guard let first = name.first, first != UInt8(ascii: ".") else { return nil }
                isSwift = name.count > swiftSuffix.count && name.suffix(swiftSuffix.count).elementsEqual(swiftSuffix)
                // A folder is known by its type; an unknown type (or a link) by stat.
                guard isSwift || type != Int(DT_REG) else { return nil }
                return folder + "/" + String(decoding: name, as: UTF8.self)
            }
            guard let path else { continue }
            if type == Int(DT_UNKNOWN) || type == Int(DT_LNK) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                let mode = info.st_mode & S_IFMT
                type = mode == S_IFDIR ? Int(DT_DIR) : mode == S_IFREG ? Int(DT_REG) : Int(DT_UNKNOWN)
            }
            if type == Int(DT_DIR) {
                folders.append(path)
            } else if type == Int(DT_REG) && isSwift {
                files.append(path)
            }
        }
        closedir(handle)
        for subfolder in folders { files += sourceFiles(under: subfolder, depth: depth + 1) }
        return files
    }

    /// The flags a runtime is built with, compiling and linking: a change
    /// to any of them is a new runtime. Joined once, for both of the key's
    /// hashes.
    static let keyedFlags =
        runtimeFlags + runtimeLibraryStartFlags + ProgramHost.linkFlags + [ProgramHost.mainSource]

    /// The runtime's cache key: the toolchain, the flags and the sources'
    /// text. Reading and hashing 400 KB of sources was two thirds of the
    /// start-up of a cached program, so the key is remembered under a hash
    /// of each file's name, size, inode and change times (`stat`), and the
    /// text is read again only when one of those changes or a file comes or
    /// goes.
    static func runtimeKey(sources: String, files: [String], toolchain: String, cache: String) -> String {
        var stamp = FNV1a()
        stamp.add(toolchain)
        for flag in keyedFlags { stamp.add(flag) }
        // Each file's name below `sources`, by its bytes (`dropFirst` on a
        // String counts Characters, a thousand instructions a file).
        let prefix = sources.utf8.count
        func addName(_ file: String, to hash: inout FNV1a) {
            var file = file
            file.withUTF8 { hash.add(bytes: UnsafeBufferPointer(rebasing: $0.dropFirst(prefix))) }
        }
        // Each file's stamp is hashed on its own and the stamps summed, so
        // that the files' order does not matter: they are listed in the
        // folders' order, not sorted (sorting 140 paths cost a cached run a
        // third of a million instructions, Benchmarks/README.md).
        var sum: UInt64 = 0
        for file in files {
            var info = stat()
            var each = FNV1a()
            addName(file, to: &each)
            if stat(file, &info) == 0 {
                each.add(UInt64(info.st_dev))
                each.add(UInt64(info.st_ino))
                each.add(UInt64(truncatingIfNeeded: info.st_size))
                each.add(UInt64(truncatingIfNeeded: info.st_mtim.tv_sec))
                each.add(UInt64(truncatingIfNeeded: info.st_mtim.tv_nsec))
                each.add(UInt64(truncatingIfNeeded: info.st_ctim.tv_sec))
                each.add(UInt64(truncatingIfNeeded: info.st_ctim.tv_nsec))
            }
            sum = sum &+ each.value
        }
        stamp.add(UInt64(files.count))
        stamp.add(sum)
        let remembered = cache + "/sources/" + stamp.hex
        if let known = try? Files.read(remembered), known.count == 16 { return known }
        var hash = FNV1a()
        hash.add(toolchain)
        for flag in keyedFlags { hash.add(flag) }
        for file in files.sorted() {
            addName(file, to: &hash)
            hash.add((try? Files.read(file)) ?? "")
        }
        if (try? SwiftProgram.makeDirectories(cache + "/sources")) != nil {
            try? Files.write(hash.hex, to: remembered)
        }
        return hash.hex
    }

    private static func compileStep(
        _ swiftc: String, bound: Deadline,
        check: (ChildProcess.Ending, _ what: String, _ log: String) throws -> Void, _ arguments: [String], log: String
    ) throws {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        let ending = ChildProcess.run(
            swiftc, arguments, output: descriptor >= 0 ? descriptor : nil, deadline: bound, ownGroup: true)
        // A Ctrl-C as the step ended: stopped as if during it.
        try check(ChildProcess.interruptedDuringRun ? .signaled(SIGINT) : ending, "the Swift runtime", log)
    }

    // MARK: The rewriter helper

    /// The folders of the rewriter helper's sources, beside the runtime's:
    /// the messages both sides share, then the helper itself.
    static let rewriterModules = ["RewriterProtocol", "RewriterHelper"]

    /// The helper's file name in the runtime's folder.
    static let rewriterName = "kvo-rewriter"

    /// The swift-syntax modules the helper is compiled against.
    static let hostModuleNames = ["SwiftSyntax", "SwiftParser"]

    /// `swiftc`'s arguments for the helper, compiled from `files` into
    /// `output`. Unoptimised: it builds in half the time of `-O` and reads a
    /// program in a few milliseconds either way (the parser is the host
    /// library's, optimised). The host modules are built from their
    /// interfaces into a module cache kept in kvo-run's cache, so a second
    /// toolchain build (a changed runtime) takes seconds.
    static func rewriterArguments(host: String, files: [String], moduleCache: String, output: String) -> [String] {
        ["-Onone", "-module-name", "KVORewriter", "-module-cache-path", moduleCache, "-I", host, "-L", host]
            + hostModuleNames.map { "-l" + $0 } + ["-Xlinker", "-rpath", "-Xlinker", host] + files + ["-o", output]
    }
}
