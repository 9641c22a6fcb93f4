import KVOCore
import KVOOutput
import KVOScript
import SwiftRewriter

#if canImport(Glibc)
import Glibc
#endif

/// A Swift program (SPEC §11.0): rewritten for the runtime, compiled by the
/// toolchain's `swiftc`, run as a child process whose output is the trace.
///
/// Where the runtime comes from: kvo-run compiles it itself, once per
/// toolchain and runtime version, from the sources of KVOCore, KVOOutput
/// and KVOFoundation (three modules, as in the package), into `$XDG_CACHE_HOME/kvo-run` (else `~/.cache/kvo-run`).
/// It does not reuse the package's own build of them: those are built with
/// the unsafe single-threaded flags of Package.swift, and a program may use
/// threads. The sources are found, in order, in `$KVO_RUNTIME_SOURCES`, in
/// `share/kvo-run/runtime` beside the installed binary (`make install`
/// copies them there), and in the checkout this binary was built from
/// (`#filePath`: a fresh clone and CI need nothing more). The cache key
/// hashes those sources, the flags they are built with and `swiftc
/// --version`, so a changed runtime or toolchain is rebuilt; programs are
/// cached by their source, file name, runtime and kvo-run build, so that a
/// cached program starts without being rewritten or compiled.
public enum SwiftProgram {
    public struct Settings {
        public var swiftc: String?
        public var format: OutputFormatKind = .text
        public var maxDepth = 1000
        public var quiet = false
        public var legacyDealloc = false
        public var timeout: Double?
        /// `--explain`: the engine's steps as `#` lines or `explain` events.
        public var explain = false
        /// `--keep-going`, which a Swift program cannot honour (SPEC §11.0:
        /// Swift cannot catch an NSException): the runtime says so when an
        /// uncaught exception or a runtime error ends the program.
        public var keepGoing = false
        /// ANSI colours on the trace (standard output) and diagnostics
        /// (standard error), as for a scenario on a terminal.
        public var color = false
        public var diagnosticColor = false
        /// Whether the run's counts are wanted back (`--stats`, `--quiet`).
        public var wantsSummary = false
        /// A picture instead of the trace: `kvo-run graph`, `kvo-run trace`.
        public var picture: Picture?
        public init() {}
    }

    /// The picture a run draws instead of writing its trace; the program's
    /// own standard output then goes to standard error, where it cannot
    /// mix with the picture.
    public enum Picture: Sendable {
        /// The observation graph (DOT) at the end, or just after the last
        /// top-level statement at or before line `at`.
        case graph(at: Int?)
        /// The sequence diagram (SVG), titled so.
        case trace(title: String)
    }

    /// What a run gave back besides its status, written by the runtime as
    /// the program ended; nil when it never got there (a compile error, a
    /// trap or a signal).
    public struct Summary: Equatable, Sendable {
        public var notifications = 0
        public var objects = 0
        public var statements = 0
        /// Of the trace: events drawn, and events past what is drawn.
        public var eventsDrawn = 0
        public var eventsNotDrawn = 0
        /// The picture asked for: DOT or SVG.
        public var picture: String?
    }

    /// A `.swift` file, or a scenario whose first statement is `import Foundation`.
    public static func isSwift(_ source: String, file: String) -> Bool {
        if file.hasSuffix(".swift") { return true }
        var inComment = 0
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#!") { continue }
            while true {
                if inComment > 0 {
                    guard let star = line.indices.first(where: { line[$0...].hasPrefix("*/") }) else { break }
                    inComment -= 1
                    line = line[line.index(star, offsetBy: 2)...].drop { $0 == " " || $0 == "\t" }
                    continue
                }
                if line.hasPrefix("/*") {
                    inComment += 1
                    line = line.dropFirst(2)
                    continue
                }
                break
            }
            if inComment > 0 || line.isEmpty || line.hasPrefix("//") { continue }
            // Playgrounds start with `import UIKit` or `import AppKit`, which bring Foundation in.
            return ["import Foundation", "import Cocoa", "import UIKit", "import AppKit"].contains {
                line.hasPrefix($0)
            }
        }
        return false
    }

    /// How a step failed: said on standard error (or as a JSON `error`
    /// event), with the exit status to end with.
    public struct Failure: Error {
        public let message: String
        public let status: Int32
    }

    // MARK: Running

    /// Rewrites, compiles (or finds in the cache) and runs `source`.
    /// `display` names the file in diagnostics; `path` is where it is read
    /// again for source lines. `output` receives everything (golden tests)
    /// or nil for the terminal. Returns the exit status.
    public static func run(
        _ source: String, display: String, path: String?, settings: Settings, compileOnly: Bool = false,
        output: Int32? = nil
    ) -> Int32 {
        runReporting(
            source, display: display, path: path, settings: settings, compileOnly: compileOnly, output: output
        ).status
    }

    /// `run`, with what the runtime wrote back about the run (`Summary`).
    public static func runReporting(
        _ source: String, display: String, path: String?, settings: Settings, compileOnly: Bool = false,
        output: Int32? = nil
    ) -> (status: Int32, summary: Summary?) {
        let text = SourceText(source)
        // Diagnostics: text on standard error (or into `output`), JSON events
        // on standard output with `--format json`, as for scenarios.
        func emitLine(_ line: String, toStandardOutput: Bool) {
            if let output {
                _ = line.utf8CString.withUnsafeBufferPointer { write(output, $0.baseAddress, $0.count - 1) }
            } else if toStandardOutput {
                Runner.stdout(line)
            } else {
                Runner.stderr(line)
            }
        }
        func report(_ diagnostic: Diagnostic) {
            emitLine(
                render(diagnostic, display, text, settings, capturing: output != nil) + "\n",
                toStandardOutput: settings.format == .json)
        }
        // Found when an error needs it: splitting the source into lines was a
        // tenth of a cached program's work in kvo-run.
        func importLine() -> KVOScript.SourceLocation {
            KVOScript.SourceLocation(line: Self.importLine(of: source), column: 1)
        }
        let binary: String
        do {
            let swiftc = try toolchain(settings.swiftc, display: display)
            let runtime = try runtimeDirectory(swiftc: swiftc)
            binary = try program(source, display: display, swiftc: swiftc, runtime: runtime, report: report)
        } catch let failure as Failure {
            if !failure.message.isEmpty { report(Diagnostic(.error, failure.message, at: importLine())) }
            return (failure.status, nil)
        } catch {
            report(Diagnostic(.error, "\(error)", at: importLine()))
            return (ExitStatus.scriptErrors, nil)
        }
        if compileOnly { return (ExitStatus.success, nil) }
        // The statement a trap or a crash stopped at, written by the runtime.
        let trapFile = temporaryPath("kvo-run-trap")
        defer { unlink(trapFile) }
        var environment = programEnvironment(
            settings, display: display, sourcePath: path.map(absolute), trapFile: trapFile, colour: output == nil)
        // What the runtime writes back as the program ends (KVORunReport.swift).
        let summaryFile = temporaryPath("kvo-run-summary")
        defer { unlink(summaryFile) }
        environment.append(("KVO_SUMMARY_FILE", summaryFile))
        let pictureFile = temporaryPath("kvo-run-picture")
        defer { unlink(pictureFile) }
        switch settings.picture {
        case .graph(let at)?:
            environment.append(("KVO_GRAPH_FILE", pictureFile))
            if let at { environment.append(("KVO_GRAPH_AT", String(at))) }
        case .trace(let title)?:
            environment.append(("KVO_TRACE_FILE", pictureFile))
            environment.append(("KVO_TRACE_TITLE", title))
        case nil:
            break
        }
        Runner.flushStandardStreams()
        let ending = ChildProcess.run(
            binary, [], environment: environment, output: output, timeout: settings.timeout,
            standardOutputToError: settings.picture != nil)
        let summary = readSummary(summaryFile, picture: settings.picture == nil ? nil : pictureFile)
        let stoppedAt = trapLocation(trapFile) ?? importLine()
        switch ending {
        case .exited(let status):
            return (status, summary)
        case .signaled(let signal):
            report(Diagnostic(.error, "the program stopped: \(ChildProcess.describe(signal: signal))", at: stoppedAt))
            return (ExitStatus.failure, summary)
        case .timedOut:
            report(
                Diagnostic(
                    .error,
                    "the program ran longer than \(formatSeconds(settings.timeout ?? 0)) s and was stopped (--timeout)",
                    at: stoppedAt))
            return (ExitStatus.failure, summary)
        case .notStarted(let why):
            report(Diagnostic(.error, "cannot start the compiled program: \(why)", at: importLine()))
            return (ExitStatus.failure, nil)
        }
    }

    /// The runtime's `name value` lines, and the picture beside them; nil
    /// when the program ended before writing them.
    static func readSummary(_ path: String, picture: String?) -> Summary? {
        guard let text = try? Files.read(path), !text.isEmpty else { return nil }
        var summary = Summary()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            switch parts[0] {
            case "notifications": summary.notifications = value
            case "objects": summary.objects = value
            case "statements": summary.statements = value
            case "drawn": summary.eventsDrawn = value
            case "notDrawn": summary.eventsNotDrawn = value
            default: continue
            }
        }
        if let picture, let drawn = try? Files.read(picture, limit: GraphRendering.maxSVGBytes), !drawn.isEmpty {
            summary.picture = drawn
        }
        return summary
    }

    /// What a compiled program is told in its environment: the options,
    /// how to name its source, and where to note a trap. `colour`: whether
    /// the program writes to kvo-run's own terminal (not to a capture).
    static func programEnvironment(
        _ settings: Settings, display: String, sourcePath: String?, trapFile: String, colour: Bool
    ) -> [(name: String, value: String)] {
        var environment: [(name: String, value: String)] = [
            ("SWIFT_DETERMINISTIC_HASHING", "1"),
            ("SWIFT_BACKTRACE", "enable=no"),
            ("KVO_FORMAT", settings.format == .json ? "json" : "text"),
            ("KVO_MAX_DEPTH", String(settings.maxDepth)),
            ("KVO_SOURCE_NAME", display),
            ("KVO_TRAP_FILE", trapFile),
        ]
        if let sourcePath { environment.append(("KVO_SOURCE_PATH", sourcePath)) }
        if settings.quiet { environment.append(("KVO_QUIET", "1")) }
        if settings.legacyDealloc { environment.append(("KVO_LEGACY_DEALLOC", "1")) }
        if settings.explain { environment.append(("KVO_EXPLAIN", "1")) }
        if settings.keepGoing { environment.append(("KVO_KEEP_GOING", "1")) }
        if settings.color && colour { environment.append(("KVO_COLOR", "1")) }
        if settings.diagnosticColor && colour { environment.append(("KVO_DIAGNOSTIC_COLOR", "1")) }
        return environment
    }

    /// The statement a trap or a crash stopped at, as the runtime noted it.
    static func trapLocation(_ trapFile: String) -> KVOScript.SourceLocation? {
        guard let mark = try? Files.read(trapFile) else { return nil }
        let numbers = mark.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 2, numbers[0] > 0 else { return nil }
        return KVOScript.SourceLocation(line: numbers[0], column: max(1, numbers[1]))
    }

    /// Runs a Swift golden scenario, capturing all it prints, with the run
    /// options of its `// kvo-run:` line that a Swift program honours.
    public static func runCaptured(
        _ source: String, path: String, timeout: Double, options: RunOptions = RunOptions()
    ) -> (text: String, status: Int32) {
        var template = Array("/tmp/kvo-run-output-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { return ("kvo-run: cannot create a temporary file\n", ExitStatus.failure) }
        let tempPath = String(cString: template)
        defer {
            close(descriptor)
            unlink(tempPath)
        }
        var settings = Settings()
        settings.timeout = timeout
        settings.explain = options.explain
        settings.keepGoing = options.keepGoing
        settings.maxDepth = options.maxDepth
        settings.legacyDealloc = options.legacyDealloc
        settings.quiet = options.quiet
        let status = run(source, display: Files.baseName(path), path: path, settings: settings, output: descriptor)
        let text = (try? Files.read(tempPath, limit: OutputWriter.defaultCaptureLimit)) ?? ""
        return (text, status)
    }

    static func render(
        _ diagnostic: Diagnostic, _ display: String, _ text: SourceText, _ settings: Settings, capturing: Bool
    ) -> String {
        if settings.format == .json {
            return DiagnosticFormat.json(
                diagnostic.severity.format, diagnostic.message, line: diagnostic.location.line,
                column: diagnostic.location.column)
        }
        return diagnostic.render(file: display, source: text, color: settings.diagnosticColor && !capturing)
    }

    /// The line of `import Foundation`: what makes the file a Swift program,
    /// where errors about the toolchain point.
    static func importLine(of source: String) -> Int {
        var number = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("import ") { return number }
        }
        return 1
    }

    /// A fresh path in /tmp (the file is created, empty).
    static func temporaryPath(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        if descriptor >= 0 { close(descriptor) }
        return String(cString: template)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    // MARK: The toolchain

    /// `--swiftc PATH`, else `KVO_SWIFTC`, else `swiftc` on PATH.
    static func toolchain(_ named: String?, display: String) throws -> String {
        let chosen = named ?? getenv("KVO_SWIFTC").map { String(cString: $0) }
        if let chosen, !chosen.isEmpty {
            if chosen.contains("/") {
                if access(chosen, X_OK) == 0 { return chosen }
            } else if let found = ExternalTool.find(chosen) {
                return found
            }
            throw Failure(
                message:
                    "this is a Swift program, and the Swift compiler '\(chosen)' (named by --swiftc or KVO_SWIFTC) cannot be run; name an installed swiftc",
                status: ExitStatus.scriptErrors)
        }
        if let found = ExternalTool.find("swiftc") { return found }
        throw Failure(
            message:
                "this is a Swift program (it imports Foundation): running it needs the Swift compiler 'swiftc', which is not on PATH; install a Swift toolchain (swift.org/install) or name one with --swiftc PATH or KVO_SWIFTC=PATH (scenarios without 'import Foundation' never need it)",
            status: ExitStatus.scriptErrors)
    }

    // MARK: The runtime

    /// The modules of the runtime, in build order: each is compiled from
    /// the folder of that name, against the ones before it.
    static let runtimeModules = ["KVOCore", "KVOOutput", "KVOFoundation"]

    /// The folder holding the runtime's sources, a folder per module.
    static func runtimeSources() -> String? {
        if let named = getenv("KVO_RUNTIME_SOURCES") {
            return String(cString: named)
        }
        var candidates: [String] = []
        if let executable = executablePath() {
            let bin = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
            candidates.append(bin + "/../share/kvo-run/runtime")
        }
        // Sources/KVORun/Swift/SwiftProgram.swift → Sources
        var sources = #filePath
        for _ in 0..<3 {
            if let slash = sources.lastIndex(of: "/") { sources = String(sources[..<slash]) }
        }
        candidates.append(sources)
        return candidates.first { folder in runtimeModules.allSatisfy { Files.isDirectory(folder + "/" + $0) } }
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(cString: buffer)
    }

    static func cacheRoot() -> String {
        if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee != 0 { return String(cString: xdg) + "/kvo-run" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/tmp"
        return home + "/.cache/kvo-run"
    }

    /// What the runtime is compiled with. `-enforce-exclusivity=unchecked`:
    /// the runtime's own accesses are checked where they are developed (the
    /// package's checked lane, `make test-checked`, runs KVOCore with the
    /// checks), and in a compiled program they cost about a fifth of every
    /// notifying set (23,558 -> 18,261 instructions per B1 set). Programs keep
    /// Swift's checks of their own code. Not the package's other unsafe flag,
    /// `-assume-single-threaded`: a program may use threads.
    static let runtimeFlags = [
        "-O", "-wmo", "-parse-as-library", "-swift-version", "5", "-enforce-exclusivity=unchecked",
    ]

    /// The compiled runtime for `swiftc`, built on first use (`building`
    /// is told first: it takes a minute).
    static func runtimeDirectory(swiftc: String, building announce: (() -> Void)? = nil) throws -> String {
        guard let sources = runtimeSources() else {
            throw Failure(
                message:
                    "the sources of the Swift runtime (\(runtimeModules.joined(separator: ", "))) are not installed; reinstall kvo-run with 'make install' or set KVO_RUNTIME_SOURCES to the Sources folder of its checkout",
                status: ExitStatus.scriptErrors)
        }
        // KVO_RUNTIME_SOURCES names a folder as it is: one without a module
        // would compile part of the runtime.
        if let missing = runtimeModules.first(where: { !Files.isDirectory(sources + "/" + $0) }) {
            throw Failure(
                message:
                    "the Swift runtime's sources in \(sources) have no \(missing) folder; set KVO_RUNTIME_SOURCES to the Sources folder of a kvo-run checkout (it holds \(runtimeModules.joined(separator: ", ")))",
                status: ExitStatus.scriptErrors)
        }
        let files = runtimeFiles(sources)
        let key = runtimeKey(sources: sources, files: Array(files.joined()), toolchain: toolchainVersion(swiftc))
        let directory = cacheRoot() + "/runtime-" + key
        let last = "/lib" + (runtimeModules.last ?? "") + ".so"
        if Files.exists(directory + last) { return directory }
        announce?()
        try makeDirectories(cacheRoot())
        // Built beside, then moved into place: two runs at once never see half a runtime.
        let building = directory + ".building-\(getpid())"
        try makeDirectories(building)
        defer { removeTree(building) }
        let log = building + "/build.log"
        // Each module compiled once, to an object linked twice: into its own
        // library (with Swift's shared libraries, for any program) and into
        // libKVORuntime.so (see runtimeLibrary).
        for (module, moduleFiles) in zip(runtimeModules, files) {
            try compileStep(
                swiftc,
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
                swiftc,
                ["-emit-library", "-module-name", module, building + "/\(module).o", "-L", building] + linked + [
                    "-Xlinker", "-rpath", "-Xlinker", directory, "-o", building + "/lib\(module).so",
                ], log: log)
        }
        runtimeLibrary(swiftc: swiftc, building: building, log: log)
        for module in runtimeModules {
            unlink(building + "/\(module).o")
            unlink(building + "/\(module).autolink")
        }
        if rename(building, directory) != 0 && !Files.exists(directory + last) {
            throw Failure(
                message: "cannot store the Swift runtime in \(directory): \(String(cString: strerror(errno)))",
                status: ExitStatus.failure)
        }
        return directory
    }

    /// The Swift files of each runtime module under `sources`, module by
    /// module, each sorted.
    static func runtimeFiles(_ sources: String) -> [[String]] {
        runtimeModules.map { sourceFiles(under: sources + "/" + $0).sorted() }
    }

    /// Swift's static libraries that `import Foundation` brings in (and the
    /// standard library's implicit imports), which libKVORuntime.so holds whole.
    static let staticLibraries = [
        "swiftCore", "swift_Concurrency", "swift_StringProcessing", "swift_RegexParser", "swiftSwiftOnoneSupport",
        "swiftGlibc", "swift_Builtin_float", "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime",
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationICU",
        "_FoundationCShims", "_FoundationCollections", "CoreFoundation",
    ]

    /// libKVORuntime.so: the runtime and the whole of Swift's static
    /// standard library and Foundation in one shared library, its internal
    /// references bound when it is linked (`-Bsymbolic`). A program that
    /// imports only the runtime links against it alone. Its start-up then
    /// loads one library with no symbols to look up, instead of fifteen
    /// (the standard library, Foundation and its parts, ICU, dispatch)
    /// whose symbol relocations cost a Foundation program about 4 ms of CPU
    /// before `main`: a cached program starts in about half the time
    /// (19.4 -> 9.1 million instructions for compiled B1 with n = 0), and
    /// the link needs no autolink step. (`--allow-multiple-definition`: the
    /// standard library and the concurrency library each carry a copy of the
    /// threading library's `fatal`.) Built once per runtime, about a second;
    /// when the toolchain has no static libraries or lld, or the link fails,
    /// there is none and every program links against Swift's shared
    /// libraries (CompileJobs).
    static func runtimeLibrary(swiftc: String, building: String, log: String) {
        guard hasLLD(swiftc), let bin = toolchainBin(swiftc) else { return }
        let staticFolder = bin + "/../lib/swift_static/linux"
        let libraries = staticLibraries.map { staticFolder + "/lib\($0).a" }
        guard libraries.allSatisfy({ Files.exists($0) }), Files.exists(staticFolder + "/x86_64/swiftrt.o") else {
            return
        }
        let arguments =
            [
                "-fuse-ld=lld", "-shared", "-o", building + "/libKVORuntime.so", staticFolder + "/x86_64/swiftrt.o",
                "-Wl,--whole-archive",
            ] + runtimeModules.map { building + "/\($0).o" } + libraries + [
                "-Wl,--no-whole-archive", "-lstdc++", "-lm", "-ldl", "-lpthread", "-lutil", "-Wl,-Bsymbolic",
                "-Wl,--allow-multiple-definition", "-Wl,--build-id",
            ]
        if !runLogged([bin + "/clang"] + arguments, log: log) { unlink(building + "/libKVORuntime.so") }
    }

    /// The folder of the toolchain's programs: where `swiftc` really is.
    static func toolchainBin(_ swiftc: String) -> String? {
        guard let resolved = realpath(swiftc, nil) else { return nil }
        defer { free(resolved) }
        let path = String(cString: resolved)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
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
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let path = folder + "/" + name
            var type = Int(entry.pointee.d_type)
            if type == Int(DT_UNKNOWN) || type == Int(DT_LNK) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                let mode = info.st_mode & S_IFMT
                type = mode == S_IFDIR ? Int(DT_DIR) : mode == S_IFREG ? Int(DT_REG) : Int(DT_UNKNOWN)
            }
            if type == Int(DT_DIR) {
                folders.append(path)
            } else if type == Int(DT_REG) && name.hasSuffix(".swift") {
                files.append(path)
            }
        }
        closedir(handle)
        for subfolder in folders { files += sourceFiles(under: subfolder, depth: depth + 1) }
        return files
    }

    /// The runtime's cache key: the toolchain, the flags and the sources'
    /// text. Reading and hashing 400 KB of sources was two thirds of the
    /// start-up of a cached program, so the key is remembered under a hash
    /// of each file's name, size, inode and change times (`stat`), and the
    /// text is read again only when one of those changes or a file comes or
    /// goes.
    static func runtimeKey(sources: String, files: [String], toolchain: String) -> String {
        var stamp = FNV1a()
        stamp.add(toolchain)
        for flag in runtimeFlags { stamp.add(flag) }
        for file in files {
            var info = stat()
            stamp.add(String(file.dropFirst(sources.count)))
            if stat(file, &info) == 0 {
                for field in [
                    UInt64(info.st_dev), UInt64(info.st_ino), UInt64(truncatingIfNeeded: info.st_size),
                    UInt64(truncatingIfNeeded: info.st_mtim.tv_sec), UInt64(truncatingIfNeeded: info.st_mtim.tv_nsec),
                    UInt64(truncatingIfNeeded: info.st_ctim.tv_sec), UInt64(truncatingIfNeeded: info.st_ctim.tv_nsec),
                ] {
                    stamp.add(field)
                }
            }
        }
        let remembered = cacheRoot() + "/sources/" + stamp.hex
        if let known = try? Files.read(remembered), known.count == 16 { return known }
        var hash = FNV1a()
        hash.add(toolchain)
        for flag in runtimeFlags { hash.add(flag) }
        for file in files {
            hash.add(String(file.dropFirst(sources.count)))
            hash.add((try? Files.read(file)) ?? "")
        }
        if (try? makeDirectories(cacheRoot() + "/sources")) != nil {
            try? Files.write(hash.hex, to: remembered)
        }
        return hash.hex
    }

    private static func compileStep(_ swiftc: String, _ arguments: [String], log: String) throws {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        let ending = ChildProcess.run(swiftc, arguments, output: descriptor >= 0 ? descriptor : nil)
        guard ending == .exited(0) else {
            let text = (try? Files.read(log)) ?? ""
            throw Failure(
                message: "building the Swift runtime with \(swiftc) failed:\n" + text,
                status: ExitStatus.failure)
        }
    }

    /// `swiftc --version`, part of the runtime's cache key. Asking costs a
    /// process (half a second on a loaded machine), so the answer is kept,
    /// keyed by the compiler's path, size and modification time: a new
    /// toolchain at the same path is asked again.
    static func toolchainVersion(_ swiftc: String) -> String {
        var info = stat()
        var key = FNV1a()
        key.add(swiftc)
        if stat(swiftc, &info) == 0 {
            key.add(String(info.st_size))
            key.add(String(info.st_mtim.tv_sec) + "." + String(info.st_mtim.tv_nsec))
        }
        let remembered = cacheRoot() + "/toolchains/" + key.hex
        if let known = try? Files.read(remembered), !known.isEmpty { return known }
        let path = temporaryPath("kvo-run-version")
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return swiftc }
        _ = ChildProcess.run(swiftc, ["--version"], output: descriptor)
        close(descriptor)
        let version = swiftc + "\n" + ((try? Files.read(path)) ?? "")
        if (try? makeDirectories(cacheRoot() + "/toolchains")) != nil {
            try? Files.write(version, to: remembered)
        }
        return version
    }

    // MARK: Compiling a program

    /// The compiled program for an already rewritten `program` (the REPL's
    /// entries), from the cache when its text was compiled by this kvo-run
    /// build against this runtime. Its compile errors are reported with the
    /// file they are in, one of `files` (the names in its `#sourceLocation`s).
    static func compile(
        _ program: String, files: [String], swiftc: String, runtime: String,
        report: (Diagnostic, _ file: String) -> Void
    ) throws -> String {
        var hash = FNV1a()
        hash.add(runtime)
        hash.add(executableIdentity)
        for flag in programFlags { hash.add(flag) }
        hash.add(program)
        let directory = cacheRoot() + "/programs/" + hash.hex
        let binary = directory + "/program"
        if Files.exists(binary) { return binary }
        try makeDirectories(directory)
        let building = directory + "/building-\(getpid())"
        try makeDirectories(building)
        defer { Files.removeFolder(building) }
        try compile(program, in: building, files: files, swiftc: swiftc, runtime: runtime, report: report)
        if rename(building + "/program", binary) != 0 && !Files.exists(binary) {
            throw Failure(message: "cannot store the compiled program in \(directory)", status: 1)
        }
        return binary
    }

    /// The compiled program for `source`, from the cache when the same
    /// source under the same file name was compiled by this kvo-run build
    /// against this runtime: a cached program is neither rewritten nor
    /// compiled, and the rewriter's warnings, kept beside it, are said again.
    static func program(
        _ source: String, display: String, swiftc: String, runtime: String, report: (Diagnostic) -> Void
    ) throws -> String {
        let directory = cacheRoot() + "/programs/" + programKey(source, display: display, runtime: runtime)
        let binary = directory + "/program"
        if Files.exists(binary) {
            for warning in storedWarnings(directory + "/warnings") { report(warning) }
            return binary
        }
        let rewritten = SwiftRewriter.rewrite(source, fileName: display)
        let warnings = rewritten.warnings.map {
            Diagnostic(
                .warning, $0.message, at: KVOScript.SourceLocation(line: $0.line, column: $0.column), length: $0.length)
        }
        for warning in warnings { report(warning) }
        // What no rewrite can make run (a module Linux lacks): said at its
        // line, nothing compiled (and so nothing cached).
        for error in rewritten.errors {
            report(
                Diagnostic(
                    .error, error.message,
                    at: KVOScript.SourceLocation(line: error.line, column: error.column), length: error.length))
        }
        if !rewritten.errors.isEmpty { throw Failure(message: "", status: ExitStatus.scriptErrors) }
        try makeDirectories(directory)
        let building = directory + "/building-\(getpid())"
        try makeDirectories(building)
        defer { Files.removeFolder(building) }
        try compile(rewritten.source, in: building, files: [display], swiftc: swiftc, runtime: runtime) {
            diagnostic, _ in report(diagnostic)
        }
        // The warnings before the program: a cached program has its warnings.
        if !warnings.isEmpty { try? writeFile(warningsText(warnings), to: directory + "/warnings") }
        if rename(building + "/program", binary) != 0 && !Files.exists(binary) {
            throw Failure(message: "cannot store the compiled program in \(directory)", status: 1)
        }
        return binary
    }

    /// What a cached program is found by: its source and file name (the
    /// rewriter's input), the runtime, this kvo-run build (the rewriter and
    /// the compile command are its own) and the program flags.
    static func programKey(_ source: String, display: String, runtime: String) -> String {
        var hash = FNV1a()
        hash.add(runtime)
        hash.add(executableIdentity)
        for flag in programFlags { hash.add(flag) }
        hash.add(display)
        hash.add(source)
        return hash.hex
    }

    /// This kvo-run's executable, by device, inode, size and modification
    /// time: a rebuilt kvo-run (another rewriter) compiles programs again.
    static let executableIdentity: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "" }
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// A program is compiled as Apple's `swift file.swift` compiles a
    /// script: unoptimised (a new program compiles sooner, and a program
    /// has no optimiser to please), Swift 5 mode, module `main`.
    static let programFlags = [
        "-swift-version", "5", "-module-name", "main", "-Onone", "-suppress-warnings", "-diagnostic-style", "llvm",
    ]

    /// `swiftc`'s arguments for compiling `source` into `output` against
    /// `runtime`: linked by lld (about half of gold's time) when the
    /// toolchain has it.
    static func compileArguments(swiftc: String, runtime: String, source: String, output: String) -> [String] {
        var arguments =
            programFlags + [
                "-I", runtime, "-L", runtime,
            ] + runtimeModules.reversed().map { "-l" + $0 } + ["-Xlinker", "-rpath", "-Xlinker", runtime]
        if hasLLD(swiftc) { arguments += ["-use-ld=lld"] }
        return arguments + [source, "-o", output]
    }

    /// Whether `ld.lld` sits beside `swiftc` (or the file it links to), where
    /// the toolchain's clang looks for it.
    static func hasLLD(_ swiftc: String) -> Bool {
        var folders = [swiftc]
        if let resolved = realpath(swiftc, nil) {
            folders.append(String(cString: resolved))
            free(resolved)
        }
        return folders.contains { path in
            guard let slash = path.lastIndex(of: "/") else { return false }
            return access(String(path[..<slash]) + "/ld.lld", X_OK) == 0
        }
    }

    /// Compiles `program` into `folder`/program, reporting swiftc's
    /// diagnostics at the user's lines.
    static func compile(
        _ program: String, in folder: String, files: [String], swiftc: String, runtime: String,
        report: (Diagnostic, _ file: String) -> Void
    ) throws {
        // The file is named after the user's own, so that a trap's message names it.
        let sourcePath = folder + "/main.swift"
        try writeFile(program, to: sourcePath)
        let log = folder + "/compile.log"
        let output = folder + "/program"
        // Ctrl-C reaches the compiler too (one process group): said as such,
        // not as a compile error.
        var interrupted = false
        func step(_ command: [String]) -> Bool {
            let ending = runStep(command, log: log)
            if ending == .signaled(SIGINT) { interrupted = true }
            return ending == .exited(0)
        }
        let compiled: Bool
        if let jobs = compileJobs(swiftc: swiftc, runtime: runtime) {
            compiled = runJobs(
                jobs, importsOnlyRuntime: importsOnlyRuntime(program), source: sourcePath, folder: folder,
                output: output, runtime: runtime, log: log, step: step)
        } else {
            compiled = step(
                [swiftc] + compileArguments(swiftc: swiftc, runtime: runtime, source: sourcePath, output: output))
        }
        if interrupted {
            throw Failure(message: "compiling was interrupted (Ctrl-C); nothing ran", status: ExitStatus.failure)
        }
        guard compiled else {
            let text = (try? Files.read(log)) ?? ""
            // A note at the very place of the error before it is one of swiftc's
            // fix-it suggestions ("did you mean to use 'try'?"): left out.
            var diagnostics: [(file: String, diagnostic: Diagnostic)] = []
            for found in compilerDiagnostics(text, files: files) {
                if found.diagnostic.severity == .note,
                    let last = diagnostics.last(where: { $0.diagnostic.severity != .note }),
                    last.file == found.file, last.diagnostic.location == found.diagnostic.location
                {
                    continue
                }
                diagnostics.append(found)
            }
            for found in diagnostics { report(found.diagnostic, found.file) }
            if diagnostics.isEmpty {
                report(
                    Diagnostic(
                        .error, "swiftc could not compile the program:\n\(text)",
                        at: KVOScript.SourceLocation(line: 1, column: 1)), files.last ?? "")
            }
            // Already reported, each at its line.
            throw Failure(message: "", status: ExitStatus.scriptErrors)
        }
    }

    /// The driver's jobs without the driver (CompileJobs): the frontend, then
    /// for a program that imports only the runtime the link against
    /// libKVORuntime.so (by the linker alone once its command is known),
    /// else the autolink extractor and clang.
    static func runJobs(
        _ jobs: CompileJobs, importsOnlyRuntime: Bool, source: String, folder: String, output: String,
        runtime: String, log: String, step: ([String]) -> Bool
    ) -> Bool {
        guard step(jobs.frontendJob(source: source, folder: folder)) else { return false }
        if importsOnlyRuntime, let link = jobs.runtimeLinkJob(folder: folder, output: output) {
            if let direct = jobs.directLinkJob(folder: folder, output: output) {
                if step(direct) { return true }
            } else {
                if let printed = captured(link + ["-###"]),
                    let direct = CompileJobs.linkerCommand(printed, folder: folder, outputPath: output)
                {
                    var learned = jobs
                    learned.directLink = direct
                    try? Files.write(learned.serialized, to: runtime + "/" + CompileJobs.fileName)
                }
                if step(link) { return true }
            }
            // Linked again against Swift's shared libraries below, whose
            // messages are the ones to show if that fails too.
            truncate(log, 0)
        }
        guard step(jobs.autolinkJob(folder: folder)) else { return false }
        return step(jobs.linkJob(folder: folder, output: output))
    }

    /// Whether the runtime is the program's only import (what `import
    /// Foundation` became), so that it links against the runtime's libraries
    /// and no others. Any other mention of `import`, even in a comment,
    /// answers no: the program's object is then asked for its libraries.
    static func importsOnlyRuntime(_ program: String) -> Bool {
        let word = Array("import".utf8)
        let bytes = Array(program.utf8)
        var count = 0
        var index = 0
        while index + word.count <= bytes.count {
            if bytes[index] == word[0] && bytes[index..<index + word.count].elementsEqual(word) { count += 1 }
            index += 1
        }
        return count == 1 && program.contains("import KVOFoundation\n")
    }

    /// The driver's plan for compiling against `runtime` (CompileJobs), asked
    /// once and kept in the runtime's folder; nil when the driver's plan is
    /// not one this kvo-run can follow (then the driver compiles).
    static func compileJobs(swiftc: String, runtime: String) -> CompileJobs? {
        let file = runtime + "/" + CompileJobs.fileName
        if Files.exists(file) {
            return (try? Files.read(file)).flatMap { CompileJobs(serialized: $0) }
        }
        guard let probe = Files.temporaryFolder() else { return nil }
        // The driver makes a temporary folder even to print its plan: in the probe's.
        defer { removeTree(probe) }
        let source = probe + "/main.swift"
        let output = probe + "/program"
        let printed = captured(
            [swiftc] + compileArguments(swiftc: swiftc, runtime: runtime, source: source, output: output) + ["-###"],
            environment: [("TMPDIR", probe)])
        let library = Files.exists(runtime + "/libKVORuntime.so") ? runtime : nil
        let jobs = printed.flatMap { CompileJobs.plan($0, sourcePath: source, outputPath: output, runtime: library) }
        // Kept either way: a plan this kvo-run cannot follow is not asked for again.
        try? Files.write(jobs?.serialized ?? "driver\n", to: file)
        return jobs
    }

    /// Runs a compile step with its output appended to `log`; whether it succeeded.
    static func runLogged(_ command: [String], log: String) -> Bool {
        runStep(command, log: log) == .exited(0)
    }

    /// Runs a compile step with its output appended to `log`; how it ended.
    static func runStep(_ command: [String], log: String) -> ChildProcess.Ending {
        guard let program = command.first else { return .notStarted("no command") }
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        return ChildProcess.run(program, Array(command.dropFirst()), output: descriptor >= 0 ? descriptor : nil)
    }

    /// What `command` prints (standard output and error), when it succeeds.
    static func captured(_ command: [String], environment: [(name: String, value: String)] = []) -> String? {
        guard let program = command.first else { return nil }
        let path = temporaryPath("kvo-run-plan")
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return nil }
        let ending = ChildProcess.run(
            program, Array(command.dropFirst()), environment: environment, output: descriptor)
        close(descriptor)
        guard ending == .exited(0) else { return nil }
        return try? Files.read(path)
    }

    /// Writes a file of the program's own folder: no temporary copy and no
    /// fsync, which `Files.write` spends on files that must survive a crash.
    static func writeFile(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(
                message: "cannot write \(path): \(String(cString: strerror(errno)))", status: ExitStatus.failure)
        }
        var text = text
        let failure = text.withUTF8 { Files.writeFully(UnsafeRawBufferPointer($0), to: descriptor) }
        close(descriptor)
        if failure != 0 {
            throw Failure(
                message: "cannot write \(path): \(String(cString: strerror(failure)))", status: ExitStatus.failure)
        }
    }

    /// The rewriter's warnings as kept beside a cached program: one a line,
    /// `line column length message`, the message with `\\`, `\n` escaped.
    static func warningsText(_ warnings: [Diagnostic]) -> String {
        warnings.map { warning in
            var message = ""
            for character in warning.message {
                switch character {
                case "\\": message += "\\\\"
                case "\n": message += "\\n"
                default: message.append(character)
                }
            }
            return "\(warning.location.line) \(warning.location.column) \(warning.length) \(message)\n"
        }.joined()
    }

    static func storedWarnings(_ path: String) -> [Diagnostic] {
        guard let text = try? Files.read(path) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let number = Int(parts[0]), let column = Int(parts[1]), let length = Int(parts[2])
            else { return nil }
            var message = ""
            var escaped = false
            for character in parts[3] {
                if escaped {
                    message.append(character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    message.append(character)
                }
            }
            return Diagnostic(
                .warning, message, at: KVOScript.SourceLocation(line: number, column: column), length: length)
        }
    }

    /// swiftc's diagnostics about the user's files (`FILE:LINE:COL: error: …`);
    /// the excerpts it prints are of the rewritten text and are left out.
    static func compilerDiagnostics(_ text: String, files: [String]) -> [(file: String, diagnostic: Diagnostic)] {
        var result: [(file: String, diagnostic: Diagnostic)] = []
        // The longest name first: one may begin with another.
        let names = files.sorted { $0.count > $1.count }
        for line in text.split(separator: "\n") {
            guard let display = names.first(where: { line.hasPrefix($0 + ":") }) else { continue }
            let rest = line.dropFirst(display.count + 1)
            let parts = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let lineNumber = Int(parts[0]), let column = Int(parts[1]) else { continue }
            let severityText = parts[2].trimmingSpaces
            let severity: Diagnostic.Severity
            switch severityText {
            case "error": severity = .error
            case "warning": severity = .warning
            case "note": severity = .note
            default: continue
            }
            result.append(
                (
                    display,
                    Diagnostic(
                        severity, String(parts[3].trimmingSpaces),
                        at: KVOScript.SourceLocation(line: lineNumber, column: column))
                ))
        }
        return result
    }

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

extension Substring {
    var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}

/// 64-bit FNV-1a: a cache key, not a security measure.
struct FNV1a {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                state ^= UInt64(byte)
                state = state &* 0x100_0000_01b3
            }
        }
        state ^= 0xff
        state = state &* 0x100_0000_01b3
    }
    /// A number's eight bytes.
    mutating func add(_ value: UInt64) {
        var value = value
        for _ in 0..<8 {
            state ^= value & 0xff
            state = state &* 0x100_0000_01b3
            value >>= 8
        }
    }

    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
