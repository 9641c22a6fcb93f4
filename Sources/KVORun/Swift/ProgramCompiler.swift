import KVOCore
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

/// How a rewritten program becomes an executable against the runtime: the
/// flags it is compiled with (as Apple's `swift file.swift` compiles a
/// script), and the driver's jobs run by kvo-run itself once the driver's
/// plan is known (`CompileJobs`), with swiftc's diagnostics reported at the
/// user's lines.
enum ProgramCompiler {
    /// A program is compiled as Apple's `swift file.swift` compiles a
    /// script: unoptimised (a new program compiles sooner, and a program
    /// has no optimiser to please), Swift 5 mode, module `main`; metadata
    /// through accessors, as the runtime's (`metadataAccessorFlags` says why).
    static let programFlags =
        ["-swift-version", "5", "-module-name", "main", "-Onone", "-suppress-warnings", "-diagnostic-style", "llvm"]
        + RuntimeCache.metadataAccessorFlags

    /// `swiftc`'s arguments for compiling `source` into `output` against
    /// `runtime`: linked by lld (about half of gold's time) when the
    /// toolchain has it.
    static func compileArguments(swiftc: String, runtime: String, source: String, output: String) -> [String] {
        var arguments =
            programFlags + [
                "-I", runtime, "-L", runtime,
            ] + RuntimeCache.runtimeModules.reversed().map { "-l" + $0 } + ["-Xlinker", "-rpath", "-Xlinker", runtime]
        if Toolchain.hasLLD(swiftc) { arguments += ["-use-ld=lld"] }
        return arguments + [source, "-o", output]
    }

    /// Compiles `program` into `folder`/program, reporting swiftc's
    /// diagnostics at the user's lines. A step still running when the run's
    /// `deadline` passes is stopped (with what it started) and nothing
    /// after it runs. Returns whether the program is the shared object the
    /// runtime's program host loads (`ProgramHost`) rather than an executable.
    @discardableResult
    static func compile(
        _ program: String, in folder: String, files: [String], swiftc: String, runtime: String, deadline: Deadline,
        report: (Diagnostic, _ file: String) -> Void
    ) throws -> Bool {
        // The file is named after the user's own, so that a trap's message names it.
        let sourcePath = folder + "/main.swift"
        try SwiftProgram.writeFile(program, to: sourcePath)
        let log = folder + "/compile.log"
        let output = folder + "/program"
        // Ctrl-C reaches the compiler too (kvo-run passes it on to the
        // step's process group): said as such, not as a compile error.
        var interrupted = false
        var timedOut = false
        var lastEnding = ChildProcess.Ending.exited(0)
        func step(_ command: [String]) -> Bool {
            // Nothing more once a step was stopped (a link tried again after
            // a failed one would start after the deadline, or the Ctrl-C).
            guard !interrupted && !timedOut else { return false }
            let ending = runStep(command, log: log, deadline: deadline)
            lastEnding = ending
            // A Ctrl-C that came as the step ended (the step itself done) counts
            // too: nothing more is compiled, linked or run.
            if ending == .signaled(SIGINT) || ChildProcess.interruptedDuringRun { interrupted = true }
            if ending == .timedOut { timedOut = true }
            return ending == .exited(0) && !interrupted
        }
        let compiled: Bool
        var hosted = false
        if let jobs = compileJobs(swiftc: swiftc, runtime: runtime, deadline: deadline) {
            let linked = runJobs(
                jobs, importsOnlyRuntime: importsOnlyRuntime(program), source: sourcePath, folder: folder,
                output: output, runtime: runtime, log: log, deadline: deadline, step: step)
            compiled = linked != nil
            // The plan was made in this runtime's folder, for its host when it has one.
            hosted = linked == .againstRuntime && Files.exists(ProgramHost.path(in: runtime))
        } else {
            compiled = step(
                [swiftc] + compileArguments(swiftc: swiftc, runtime: runtime, source: sourcePath, output: output))
        }
        if interrupted {
            throw SwiftProgram.Failure(
                message: "compiling was interrupted (Ctrl-C); nothing ran", status: ExitStatus.failure)
        }
        // SIGTERM or SIGHUP, passed on to the compiler: kvo-run ends of it.
        if ChildProcess.forwardedSignal != 0 {
            throw SwiftProgram.Failure(
                message: "compiling was stopped by signal \(ChildProcess.forwardedSignal); nothing ran",
                status: ExitStatus.failure)
        }
        // Said as the step that ran too long, never as the compile errors
        // of a compiler cut short (its log ends mid-sentence).
        if timedOut {
            throw SwiftProgram.Failure(message: deadline.stopped("compiling the program"), status: ExitStatus.failure)
        }
        guard compiled else {
            let text = SwiftProgram.readLog(log)
            // swift-frontend's own crash: said as the compiler's bug, with
            // the lines before its stack dump (whose cache paths and
            // addresses say nothing to the user) and the program's name.
            if let dump = text.firstRange(of: "\nStack dump:") ?? text.firstRange(of: "PLEASE submit a bug report") {
                let before = String(text[..<dump.lowerBound]).replacing(sourcePath, with: files.last ?? "main.swift")
                report(
                    Diagnostic(
                        .error,
                        "the Swift compiler (\(swiftc)) crashed while compiling the program; this is a bug in swiftc, not in your program: try writing the line it names another way, or another toolchain (--swiftc)"
                            + (before.isEmpty ? "" : ":\n" + before),
                        at: KVOScript.SourceLocation(line: 1, column: 1)), files.last ?? "")
                throw SwiftProgram.Failure(message: "", status: ExitStatus.scriptErrors)
            }
            // A note at the very place of the error before it is one of swiftc's
            // fix-it suggestions ("did you mean to use 'try'?"): left out.
            var diagnostics: [(file: String, diagnostic: Diagnostic)] = []
            let compiler = SwiftProgram.placingGeneratedCode(
                SwiftProgram.compilerDiagnostics(text, files: files, source: program), files: files)
            for found in compiler {
                if found.diagnostic.severity == .note,
                    let last = diagnostics.last(where: { $0.diagnostic.severity != .note }),
                    last.file == found.file, last.diagnostic.location == found.diagnostic.location
                {
                    continue
                }
                diagnostics.append(found)
                if let note = kvoMemberNote(found.diagnostic, program: program) {
                    diagnostics.append((found.file, note))
                }
            }
            for found in diagnostics { report(found.diagnostic, found.file) }
            if diagnostics.isEmpty {
                // Never "could not compile the program:" and nothing more.
                let said =
                    text.allSatisfy(\.isWhitespace)
                    ? "swiftc (\(swiftc)) \(ChildProcess.describe(lastEnding)) and printed nothing: "
                        + (SwiftProgram.emptyLogReason(folder)
                            ?? "run the program again, and if it fails again check that \(swiftc) compiles a one-line Swift file")
                    : "swiftc could not compile the program:\n\(text)"
                report(Diagnostic(.error, said, at: KVOScript.SourceLocation(line: 1, column: 1)), files.last ?? "")
            }
            // Already reported, each at its line.
            throw SwiftProgram.Failure(message: "", status: ExitStatus.scriptErrors)
        }
        // A compiler that says it succeeded and made nothing (not a Swift
        // compiler, or one whose output was lost).
        guard Files.exists(output) else {
            let text = SwiftProgram.readLog(log)
            throw SwiftProgram.Failure(
                message:
                    "\(swiftc) ended as if it had compiled the program but wrote no program"
                    + (text.allSatisfy(\.isWhitespace) ? "" : " (it printed: \(text))")
                    + "; check that --swiftc or KVO_SWIFTC names a Swift compiler"
                    + (SwiftProgram.emptyLogReason(folder).map { ", and " + $0 } ?? ""),
                status: ExitStatus.failure)
        }
        return hosted
    }

    /// KVO's and KVC's methods, which only an `NSObject` has.
    static let kvoMembers: Set<String> = [
        "observe", "addObserver", "removeObserver", "value", "setValue", "willChangeValue", "didChangeValue",
        "willChange", "didChange", "mutableArrayValue", "mutableSetValue", "setValuesForKeys",
        "dictionaryWithValues", "observationInfo", "validateValue",
    ]

    /// The note after swiftc's "value of type 'T' has no member 'observe'"
    /// (SPEC §11.0): KVO needs an `NSObject` subclass, which a type the
    /// program declares can become; one of Foundation's classes that kvo-run
    /// does not model cannot (§11.7).
    static func kvoMemberNote(_ diagnostic: Diagnostic, program: String) -> Diagnostic? {
        guard diagnostic.severity == .error else { return nil }
        let text = diagnostic.message
        let prefix = "value of type '"
        guard text.hasPrefix(prefix), let typeEnd = text.dropFirst(prefix.count).firstIndex(of: "'") else {
            return nil
        }
        let type = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<typeEnd])
        let rest = text[typeEnd...]
        guard rest.hasPrefix("' has no member '") else { return nil }
        let member = rest.dropFirst("' has no member '".count).prefix { $0 != "'" }
        guard kvoMembers.contains(String(member)) else { return nil }
        let base = String(type.prefix { $0 != "<" && $0 != "?" })
        // `class Base`, `struct Base`…: two words in a row of the program's.
        let words = program.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        let declared = zip(words, words.dropFirst()).contains { keyword, name in
            name == base && ["class", "struct", "enum", "actor", "protocol"].contains(keyword)
        }
        let message: String
        switch base {
        case "AnyObject":
            // A Mac finds any Objective-C method on AnyObject at run time.
            message =
                "a Mac finds '\(member)' on 'AnyObject' by Objective-C's dynamic lookup, which Swift on Linux does not have: cast to the class first, '(object as! NSObject).\(member)(…)'"
        case "Any":
            message = "KVO and KVC are an NSObject's: cast first, '(object as! NSObject).\(member)(…)'"
        default:
            message =
                declared
                ? "KVO and KVC need an object of a class that inherits from NSObject: declare '\(base)' as 'class \(base): NSObject' (a struct or an enum cannot be observed)"
                : "'\(base)' is one of swift-corelibs-foundation's classes, whose KVO and KVC kvo-run does not model (SPEC §11.7): observe a property of your own NSObject subclass instead"
        }
        return Diagnostic(.note, message, at: diagnostic.location)
    }

    /// The driver's jobs without the driver (CompileJobs): the frontend, then
    /// for a program that imports only the runtime the link for the program
    /// host or against libKVORuntime.so (by the linker alone once its
    /// command is known), else the autolink extractor and clang.
    static func runJobs(
        _ jobs: CompileJobs, importsOnlyRuntime: Bool, source: String, folder: String, output: String,
        runtime: String, log: String, deadline: Deadline, step: ([String]) -> Bool
    ) -> Linked? {
        guard step(jobs.frontendJob(source: source, folder: folder)) else { return nil }
        if importsOnlyRuntime, let link = jobs.runtimeLinkJob(folder: folder, output: output) {
            if let direct = jobs.directLinkJob(folder: folder, output: output) {
                if step(direct) { return .againstRuntime }
            } else {
                if let printed = captured(link + ["-###"], deadline: deadline),
                    let direct = CompileJobs.linkerCommand(printed, folder: folder, outputPath: output)
                {
                    var learned = jobs
                    learned.directLink = direct
                    try? Files.write(learned.serialized, to: runtime + "/" + CompileJobs.fileName)
                }
                if step(link) { return .againstRuntime }
            }
            // Linked again against Swift's shared libraries below, whose
            // messages are the ones to show if that fails too.
            truncate(log, 0)
        }
        guard step(jobs.autolinkJob(folder: folder)), step(jobs.linkJob(folder: folder, output: output)) else {
            return nil
        }
        return .withSharedLibraries
    }

    /// How a compiled program was linked.
    enum Linked {
        /// By the plan's link against the runtime alone (`runtimeLink`):
        /// libKVORuntime.so, or the program host's shared object when the
        /// runtime has a host.
        case againstRuntime
        /// An executable against Swift's shared libraries and the runtime's.
        case withSharedLibraries
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
    /// not one this kvo-run can follow (then the driver compiles), or when
    /// the run's `deadline` passed while asking (then nothing is kept: the
    /// plan is asked again by the next run, and the compile step that
    /// follows is stopped at once).
    static func compileJobs(swiftc: String, runtime: String, deadline: Deadline) -> CompileJobs? {
        let file = runtime + "/" + CompileJobs.fileName
        if Files.exists(file) {
            return (try? Files.read(file)).flatMap { CompileJobs(serialized: $0) }
        }
        guard let probe = Files.temporaryFolder() else { return nil }
        // The driver makes a temporary folder even to print its plan: in the probe's.
        defer { SwiftProgram.removeTree(probe) }
        let source = probe + "/main.swift"
        let output = probe + "/program"
        let printed = captured(
            [swiftc] + compileArguments(swiftc: swiftc, runtime: runtime, source: source, output: output) + ["-###"],
            environment: [("TMPDIR", probe)], deadline: deadline)
        if printed == nil && deadline.hasPassed { return nil }
        let hosted = Files.exists(ProgramHost.path(in: runtime))
        let library = !hosted && Files.exists(runtime + "/libKVORuntime.so") ? runtime : nil
        let jobs = printed.flatMap {
            CompileJobs.plan($0, sourcePath: source, outputPath: output, runtime: library, hosted: hosted)
        }
        // Kept either way: a plan this kvo-run cannot follow is not asked for again.
        try? Files.write(jobs?.serialized ?? "driver\n", to: file)
        return jobs
    }

    /// Runs a compile step with its output appended to `log`; whether it succeeded.
    static func runLogged(_ command: [String], log: String, deadline: Deadline) -> Bool {
        runStep(command, log: log, deadline: deadline) == .exited(0)
    }

    /// Runs a compile step with its output appended to `log`; how it ended.
    /// In a process group of its own: stopped at `deadline` with the
    /// frontend and linker the driver started.
    static func runStep(_ command: [String], log: String, deadline: Deadline) -> ChildProcess.Ending {
        guard let program = command.first else { return .notStarted("no command") }
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        return ChildProcess.run(
            program, Array(command.dropFirst()), output: descriptor >= 0 ? descriptor : nil, deadline: deadline,
            ownGroup: true)
    }

    /// What `command` prints (standard output and error), when it succeeds
    /// before `deadline`.
    static func captured(
        _ command: [String], environment: [(name: String, value: String)] = [], deadline: Deadline
    ) -> String? {
        guard let program = command.first else { return nil }
        let path = SwiftProgram.temporaryPath("kvo-run-plan")
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return nil }
        let ending = ChildProcess.run(
            program, Array(command.dropFirst()), environment: environment, output: descriptor, deadline: deadline,
            ownGroup: true)
        close(descriptor)
        guard ending == .exited(0) else { return nil }
        return try? Files.read(path)
    }
}
