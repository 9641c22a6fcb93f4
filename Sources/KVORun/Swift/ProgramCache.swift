import KVOCore
import KVOOutput
import KVOScript
import RewriterProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A compiled program in the cache, and how it is run.
struct CompiledProgram {
    /// The program: an executable, or the host's shared object.
    let path: String
    /// The program host that loads it (`ProgramHost`), or nil when the
    /// program is an executable of its own.
    let host: String?

    /// What is started: the host, or the program itself. Either way its
    /// `argv[0]` is the program's path.
    var executable: String { host ?? path }

    /// `environment`, and for the host the program it loads.
    func environment(_ environment: [(name: String, value: String)]) -> [(name: String, value: String)] {
        host == nil ? environment : environment + [(ProgramHost.libraryVariable, path)]
    }
}

/// The compiled programs of one runtime (SPEC §11.0), in the cache's
/// `programs/KEY/`: a program is found by its source, its file name, the
/// runtime (and so the rewriter beside it), this kvo-run build and the
/// program flags; a cached one is neither rewritten nor compiled, and the
/// rewriter's warnings kept beside it are said again. `root` is the cache's
/// place, decided by the caller (`RuntimeCache.cacheRoot()`), never read here.
struct ProgramCache {
    let root: String
    let swiftc: String
    let runtime: String

    /// The compiled program for an already rewritten `program` (the REPL's
    /// entries), from the cache when its text was compiled by this kvo-run
    /// build against this runtime. Its compile errors are reported with the
    /// file they are in, one of `files` (the names in its `#sourceLocation`s).
    /// Compiling stops at the run's `deadline`.
    func compiled(
        _ program: String, files: [String], deadline: Deadline, report: (Diagnostic, _ file: String) -> Void
    ) throws -> CompiledProgram {
        let directory = root + "/programs/" + Self.cacheKey(runtime: runtime, [program])
        if let found = intact(directory) {
            CacheContents.markUsed(directory)
            return found
        }
        return try store(program, in: directory, files: files, deadline: deadline, report: report)
    }

    /// The compiled program for `source`, from the cache when the same
    /// source under the same file name was compiled by this kvo-run build
    /// against this runtime: a cached program is neither rewritten nor
    /// compiled, and the rewriter's warnings, kept beside it, are said again.
    /// `report` gets each diagnostic with its file: `display`, or one the
    /// program's own `#sourceLocation(file:…)` names. Rewriting and
    /// compiling stop at the run's `deadline` (nothing is then kept).
    func program(
        _ source: String, display: String, deadline: Deadline, report: (Diagnostic, _ file: String) -> Void
    ) throws -> CompiledProgram {
        let directory = root + "/programs/" + Self.programKey(source, display: display, runtime: runtime)
        // KVO_SHOW_REWRITTEN=1: the rewritten program on standard error, for
        // a bug report or a contributor (a cached program is rewritten again).
        let show = getenv("KVO_SHOW_REWRITTEN").map { String(cString: $0) == "1" } ?? false
        if !show, let found = intact(directory) {
            // When it was last used, for pruning (CacheContents).
            CacheContents.markUsed(directory)
            for warning in SwiftProgram.storedWarnings(directory + "/warnings") { report(warning, display) }
            return found
        }
        let rewritten = try Rewriter(executable: runtime + "/" + RuntimeCache.rewriterName).rewrite(
            source, fileName: display, deadline: deadline)
        if show {
            Runner.stderr("// ---- \(display), as kvo-run's rewriter gave it to swiftc ----\n")
            Runner.stderr(rewritten.source + (rewritten.source.hasSuffix("\n") ? "" : "\n"))
            Runner.stderr("// ---- end of \(display) ----\n")
        }
        let warnings =
            (rewritten.warnings.map {
                Diagnostic(
                    .warning, $0.message, at: KVOScript.SourceLocation(line: $0.line, column: $0.column),
                    length: $0.length)
            } + SwiftProgram.keyPathWarnings(rewritten)).sorted {
                ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column)
            }
        for warning in warnings { report(warning, display) }
        // What no rewrite can make run (a module Linux lacks): said at its
        // line, nothing compiled (and so nothing cached).
        for error in rewritten.errors {
            report(
                Diagnostic(
                    .error, error.message,
                    at: KVOScript.SourceLocation(line: error.line, column: error.column), length: error.length),
                display)
        }
        if !rewritten.errors.isEmpty { throw SwiftProgram.Failure(message: "", status: ExitStatus.scriptErrors) }
        var compileDiagnostics: [(file: String, diagnostic: Diagnostic)] = []
        do {
            return try store(
                rewritten.source, in: directory, files: [display], deadline: deadline,
                report: { diagnostic, file in compileDiagnostics.append((file, diagnostic)) },
                // The warnings before the program: a cached program has its warnings.
                beside: { folder in
                    if !warnings.isEmpty {
                        try? SwiftProgram.writeFile(SwiftProgram.warningsText(warnings), to: folder + "/warnings")
                    }
                })
        } catch let failure as SwiftProgram.Failure where failure.status == ExitStatus.scriptErrors {
            // A program that does not parse: swiftc's own errors for the
            // user's text (`expected '}' in class`), never what the rewritten
            // text made of the damage (errors past the end of the file, about
            // names the rewriter introduced).
            let parseErrors = try parseDiagnostics(source, display: display, in: directory, deadline: deadline)
            let found = SwiftProgram.characterColumns(
                parseErrors.isEmpty ? compileDiagnostics : parseErrors, display: display, source: source)
            for (file, diagnostic) in found { report(diagnostic, file) }
            throw failure
        }
    }

    /// `swiftc -parse` of the program as the user wrote it: its diagnostics
    /// when it does not parse, else none. Stopped at the run's `deadline`,
    /// it throws: what the compile errors say of a program that does not
    /// parse is no help (SPEC §11.0), and the user is told to allow more time.
    private func parseDiagnostics(
        _ source: String, display: String, in directory: String, deadline: Deadline
    ) throws
        -> [(file: String, diagnostic: Diagnostic)]
    {
        guard (try? SwiftProgram.makeDirectories(directory)) != nil,
            (try? SwiftProgram.requireOwnFolder(directory)) != nil,
            let folder = try? SwiftProgram.makeFreshFolder(directory + "/parse-")
        else { return [] }
        defer { Files.removeFolder(folder) }
        // The user's name where swiftc prints it as it is: one with a quote,
        // a backslash or a control character (a newline would split swiftc's
        // line) is main.swift, which the diagnostics below are named away from.
        let last = String(display.split(separator: "/").last ?? "main.swift")
        let name = SourceLocationFile.literal(last) == last ? last : "main.swift"
        let path = folder + "/" + (name.hasSuffix(".swift") ? name : name + ".swift")
        let log = folder + "/parse.log"
        guard (try? SwiftProgram.writeFile(source, to: path)) != nil else { return [] }
        let ending = ProgramCompiler.runStep(
            [swiftc, "-parse", "-diagnostic-style", "llvm", path], log: log, deadline: deadline)
        if ending == .timedOut {
            throw SwiftProgram.Failure(
                message: deadline.stopped("checking the program's syntax (swiftc -parse)"), status: ExitStatus.failure)
        }
        guard ending != .exited(0) else { return [] }
        let text = SwiftProgram.readLog(log)
        // The user's file is `display`; a file the program's own
        // `#sourceLocation(file:…)` names is as written.
        return SwiftProgram.compilerDiagnostics(text, files: [path], source: source).map { found in
            (found.file == path ? display : found.file, found.diagnostic)
        }
    }

    /// Compiles `program` into `directory`/program: built in a folder of its
    /// own, then moved into place, so that two runs at once never see half a
    /// program. `beside` writes what is kept with it, before it appears.
    private func store(
        _ program: String, in directory: String, files: [String], deadline: Deadline,
        report: (Diagnostic, _ file: String) -> Void, beside: (String) -> Void = { _ in }
    ) throws -> CompiledProgram {
        let binary = directory + "/program"
        try SwiftProgram.makeDirectories(directory)
        try SwiftProgram.requireOwnFolder(directory)
        // Fresh and this run's alone (mkdtemp): never a folder that was
        // there, whatever it is, nor another run's with the same pid.
        let building = try SwiftProgram.makeFreshFolder(directory + "/building-")
        defer { Files.removeFolder(building) }
        let hosted = try ProgramCompiler.compile(
            program, in: building, files: files, swiftc: swiftc, runtime: runtime, deadline: deadline, report: report)
        beside(directory)
        // Its size, recorded before it appears: a program cut short (a full
        // disk, a crash, a copy) is compiled again, not run (SIGBUS, "Exec
        // format error" on every run). And how it runs: in the host or not.
        var info = stat()
        if stat(building + "/program", &info) == 0 {
            try? SwiftProgram.writeFile(
                String(info.st_size) + (hosted ? Self.hostedMark : ""), to: directory + "/" + Self.sizeName)
        }
        // Which runtime and kvo-run it is for: `kvo-run cache clean` and the
        // pruning after a new runtime remove it with its runtime.
        try? SwiftProgram.writeFile(
            CacheContents.record(runtime: runtime, identity: Self.executableIdentity),
            to: directory + "/" + CacheContents.runtimeRecord)
        if rename(building + "/program", binary) != 0 && !Files.exists(binary) {
            throw SwiftProgram.Failure(message: "cannot store the compiled program in \(directory)", status: 1)
        }
        // A new program: once a day, the programs no run used for long go.
        CacheContents(root: root).pruneDaily()
        return compiledProgram(at: binary, hosted: hosted)
    }

    /// The file beside a cached program holding its size when it was
    /// stored, followed by `hostedMark` for a program the host loads.
    static let sizeName = "program.size"

    /// After the size: the program is the host's shared object.
    static let hostedMark = " hosted"

    /// The whole compiled program `directory` holds: one whose size is the
    /// one recorded when it was stored; nil for none. One without a record
    /// (stored by an earlier kvo-run) is compiled again, a matter of seconds.
    func intact(_ directory: String) -> CompiledProgram? {
        var info = stat()
        guard stat(directory + "/program", &info) == 0,
            var recorded = try? Files.read(directory + "/" + Self.sizeName)
        else { return nil }
        let hosted = recorded.hasSuffix(Self.hostedMark)
        if hosted { recorded.removeLast(Self.hostedMark.count) }
        guard Int64(recorded) == Int64(info.st_size) else { return nil }
        return compiledProgram(at: directory + "/program", hosted: hosted)
    }

    /// The program at `path`, run by this runtime's host when `hosted`.
    private func compiledProgram(at path: String, hosted: Bool) -> CompiledProgram {
        CompiledProgram(path: path, host: hosted ? ProgramHost.path(in: runtime) : nil)
    }

    /// What a cached program is found by: its source and file name (the
    /// rewriter's input), the runtime, this kvo-run build (the rewriter and
    /// the compile command are its own) and the program flags.
    static func programKey(_ source: String, display: String, runtime: String) -> String {
        cacheKey(runtime: runtime, [display, source])
    }

    /// The hash of `parts` with the runtime, this kvo-run build and the
    /// program flags: a compiled program's folder in the cache.
    private static func cacheKey(runtime: String, _ parts: [String]) -> String {
        var hash = FNV1a()
        hash.add(runtime)
        hash.add(executableIdentity)
        for flag in ProgramCompiler.programFlags { hash.add(flag) }
        for part in parts { hash.add(part) }
        return hash.hex
    }

    /// This kvo-run's executable, by device, inode, size and modification
    /// time: a rebuilt kvo-run (another rewriter) compiles programs again.
    static let executableIdentity = identity(ofExecutable: "/proc/self/exe")

    static func identity(ofExecutable path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
}
