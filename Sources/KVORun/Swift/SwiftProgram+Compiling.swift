import KVOCore
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

extension SwiftProgram {
    // MARK: Compiling a program

    /// The compiled program for an already rewritten `program` (the REPL's
    /// entries), from the cache when its text was compiled by this kvo-run
    /// build against this runtime. Its compile errors are reported with the
    /// file they are in, one of `files` (the names in its `#sourceLocation`s).
    static func compile(
        _ program: String, files: [String], swiftc: String, runtime: String, cache: String,
        report: (Diagnostic, _ file: String) -> Void
    ) throws -> String {
        let directory = cache + "/programs/" + cacheKey(runtime: runtime, [program])
        if Files.exists(directory + "/program") { return directory + "/program" }
        return try store(program, in: directory, files: files, swiftc: swiftc, runtime: runtime, report: report)
    }

    /// The compiled program for `source`, from the cache when the same
    /// source under the same file name was compiled by this kvo-run build
    /// against this runtime: a cached program is neither rewritten nor
    /// compiled, and the rewriter's warnings, kept beside it, are said again.
    static func program(
        _ source: String, display: String, swiftc: String, runtime: String, cache: String,
        report: (Diagnostic) -> Void
    ) throws -> String {
        let directory = cache + "/programs/" + programKey(source, display: display, runtime: runtime)
        // KVO_SHOW_REWRITTEN=1: the rewritten program on standard error, for
        // a bug report or a contributor (a cached program is rewritten again).
        let show = getenv("KVO_SHOW_REWRITTEN").map { String(cString: $0) == "1" } ?? false
        if !show && Files.exists(directory + "/program") {
            for warning in storedWarnings(directory + "/warnings") { report(warning) }
            return directory + "/program"
        }
        let rewritten = try Rewriter(executable: runtime + "/" + rewriterName).rewrite(source, fileName: display)
        if show {
            Runner.stderr("// ---- \(display), as kvo-run's rewriter gave it to swiftc ----\n")
            Runner.stderr(rewritten.source + (rewritten.source.hasSuffix("\n") ? "" : "\n"))
            Runner.stderr("// ---- end of \(display) ----\n")
        }
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
        return try store(
            rewritten.source, in: directory, files: [display], swiftc: swiftc, runtime: runtime,
            report: { diagnostic, _ in report(diagnostic) },
            // The warnings before the program: a cached program has its warnings.
            beside: { folder in
                if !warnings.isEmpty { try? writeFile(warningsText(warnings), to: folder + "/warnings") }
            })
    }

    /// Compiles `program` into `directory`/program: built in a folder of its
    /// own, then moved into place, so that two runs at once never see half a
    /// program. `beside` writes what is kept with it, before it appears.
    private static func store(
        _ program: String, in directory: String, files: [String], swiftc: String, runtime: String,
        report: (Diagnostic, _ file: String) -> Void, beside: (String) -> Void = { _ in }
    ) throws -> String {
        let binary = directory + "/program"
        try makeDirectories(directory)
        let building = directory + "/building-\(getpid())"
        try makeDirectories(building)
        defer { Files.removeFolder(building) }
        try compile(program, in: building, files: files, swiftc: swiftc, runtime: runtime, report: report)
        beside(directory)
        if rename(building + "/program", binary) != 0 && !Files.exists(binary) {
            throw Failure(message: "cannot store the compiled program in \(directory)", status: 1)
        }
        return binary
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
        for flag in programFlags { hash.add(flag) }
        for part in parts { hash.add(part) }
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
    /// has no optimiser to please), Swift 5 mode, module `main`; metadata
    /// through accessors, as the runtime's (`metadataAccessorFlags` says why).
    static let programFlags =
        ["-swift-version", "5", "-module-name", "main", "-Onone", "-suppress-warnings", "-diagnostic-style", "llvm"]
        + metadataAccessorFlags

    /// `swiftc`'s arguments for compiling `source` into `output` against
    /// `runtime`: linked by lld (about half of gold's time) when the
    /// toolchain has it.
    static func compileArguments(swiftc: String, runtime: String, source: String, output: String) -> [String] {
        var arguments =
            programFlags + [
                "-I", runtime, "-L", runtime,
            ] + runtimeModules.reversed().map { "-l" + $0 } + ["-Xlinker", "-rpath", "-Xlinker", runtime]
        if Toolchain.hasLLD(swiftc) { arguments += ["-use-ld=lld"] }
        return arguments + [source, "-o", output]
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
        UTF8Search.count(of: "import", in: program, upTo: 2) == 1
            && UTF8Search.contains("import KVOFoundation\n", in: program)
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
}
