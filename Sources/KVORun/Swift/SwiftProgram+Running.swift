import KVOCore
import KVOHost
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

extension SwiftProgram {
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
        // Last, once the run's files are removed: a SIGTERM or SIGHUP passed on
        // to the compiler or the program ends kvo-run too.
        defer { ChildProcess.endIfForwarded() }
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
        func report(_ diagnostic: Diagnostic) { report(diagnostic, in: display) }
        // A file the program's own `#sourceLocation(file:…)` names is said as
        // the directive says, without an excerpt: its lines are not the user's
        // file's lines of that number.
        func report(_ diagnostic: Diagnostic, in file: String) {
            emitLine(
                render(diagnostic, file, file == display ? text : nil, settings, capturing: output != nil) + "\n",
                toStandardOutput: settings.format == .json)
        }
        // Found when an error needs it: splitting the source into lines was a
        // tenth of a cached program's work in kvo-run.
        func importLine() -> KVOScript.SourceLocation {
            KVOScript.SourceLocation(line: Self.importLine(of: source), column: 1)
        }
        let binary: CompiledProgram
        // The run's one limit (`--timeout`, or `kvo-run test`'s), for every
        // step: asking the toolchain its version, then (counted again once
        // the runtime is ready, below) rewriting, compiling and running.
        var deadline = Deadline(seconds: settings.timeout, origin: settings.timeoutOrigin)
        do {
            let swiftc = try Toolchain.find(settings.swiftc)
            // The one-time build is said at a terminal only: a capture or a
            // JSON reader gets nothing it did not ask for.
            let atTerminal = output == nil && isatty(STDERR_FILENO) != 0
            // The cache's place, read from the environment here and given to each part.
            let cache = try RuntimeCache.checkedCacheRoot()
            let runtime = try RuntimeCache.runtimeDirectory(
                swiftc: swiftc, cache: cache, deadline: deadline, say: atTerminal ? { Runner.stderr($0) } : nil)
            // The one-time build (its own bound, RuntimeCache.buildLimit) is
            // shared by every program, not this one's: the limit counts from
            // here, so that a first run with `--timeout 5`, or the first Swift
            // scenario of `kvo-run test`, does not fail for the build's minute.
            deadline = deadline.restarted()
            binary = try ProgramCache(root: cache, swiftc: swiftc, runtime: runtime)
                .program(source, display: display, deadline: deadline, report: { report($0, in: $1) })
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
        var channel = programSettings(
            settings, display: display, sourcePath: path.map(absolute), trapFile: trapFile, colour: output == nil)
        // What the runtime writes back as the program ends (KVORunReport.swift).
        let summaryFile = temporaryPath("kvo-run-summary")
        defer { unlink(summaryFile) }
        channel.summaryFile = summaryFile
        // Made only for a picture: a file made and removed in /tmp costs a
        // run about 65 µs on ext4.
        let pictureFile = settings.picture == nil ? nil : temporaryPath("kvo-run-picture")
        defer { if let pictureFile { unlink(pictureFile) } }
        switch (settings.picture, pictureFile) {
        case (.graph(let at)?, let file?): channel.picture = .graph(file: file, at: at)
        case (.trace(let title)?, let file?): channel.picture = .trace(file: file, title: title)
        default: break
        }
        let environment = channel.environment
        // With JSON, the program's standard error is read back: a trap's
        // `Fatal error` line belongs in the trap's event, which must say it
        // all on its own; everything is still passed on to standard error.
        let errorsFile = output == nil && settings.format == .json ? temporaryPath("kvo-run-stderr") : nil
        let errorsDescriptor = errorsFile.map { open($0, O_WRONLY | O_CLOEXEC) } ?? -1
        defer {
            if errorsDescriptor >= 0 { close(errorsDescriptor) }
            if let errorsFile { unlink(errorsFile) }
        }
        Runner.flushStandardStreams()
        // In kvo-run's own process group, unlike the tool steps: the program
        // may read the terminal, which a group of its own could not.
        let ending = ChildProcess.run(
            binary.executable, [], argumentZero: binary.path, environment: binary.environment(environment),
            output: output, deadline: deadline,
            standardOutputToError: settings.picture != nil,
            standardError: errorsDescriptor >= 0 ? errorsDescriptor : nil)
        let fatalError = errorsDescriptor >= 0 ? errorsFile.flatMap(Self.passOnStandardError) : nil
        let summary = readSummary(summaryFile, picture: pictureFile)
        // Read only when the program stopped: a normal end needs neither.
        func stoppedAt() -> KVOScript.SourceLocation { trapLocation(trapFile) ?? importLine() }
        switch ending {
        case .exited(let status):
            return (status, summary)
        case .signaled(SIGPIPE):
            // What it wrote to was closed (`| head -1`): a normal end for a
            // command-line tool, as for any other in a pipeline.
            return (ExitStatus.success, summary)
        case .signaled(let signal):
            var why = ChildProcess.describe(signal: signal)
            if let fatalError, signal == SIGILL || signal == SIGTRAP {
                why = "a Swift runtime trap (signal \(signal)): \(fatalError)"
            }
            report(Diagnostic(.error, "the program stopped: \(why)", at: stoppedAt()))
            return (ExitStatus.failure, summary)
        case .timedOut:
            report(
                Diagnostic(
                    .error,
                    "the program ran longer than \(formatSeconds(settings.timeout ?? 0)) s and was stopped (\(deadline.setBy))",
                    at: stoppedAt()))
            return (ExitStatus.failure, summary)
        case .notStarted(let why):
            report(Diagnostic(.error, "cannot start the compiled program: \(why)", at: importLine()))
            return (ExitStatus.failure, nil)
        }
    }

    /// Writes what the program wrote to standard error (`path`) to kvo-run's,
    /// byte for byte, and returns Swift's `…: Fatal error: …` line if its
    /// end holds one (the last: a trap ends the program), without the stack
    /// trace's addresses after it.
    static func passOnStandardError(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        Runner.flushStandardStreams()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var tail: [UInt8] = []
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let result = chunk.withUnsafeBytes {
                    write(STDERR_FILENO, $0.baseAddress.map { $0 + written }, count - written)
                }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { break }
                written += result
            }
            // The line is near the end: a trap writes it last, then dies.
            tail = Array((tail + chunk[0..<count]).suffix(1 << 16))
        }
        let text = String(decoding: tail, as: UTF8.self)
        return text.split(separator: "\n").last { $0.contains("Fatal error") }.map(String.init)
    }

    /// What the runtime wrote back (`ProgramChannel.Summary`), and the
    /// picture beside it; nil when the program ended before writing it.
    static func readSummary(_ path: String, picture: String?) -> Summary? {
        guard let text = try? Files.read(path), let counts = ProgramChannel.Summary(decoding: text) else { return nil }
        var summary = Summary()
        summary.counts = counts
        if let picture, let drawn = try? Files.read(picture, limit: GraphRendering.maxSVGBytes), !drawn.isEmpty {
            summary.picture = drawn
        }
        return summary
    }

    /// What a compiled program is told (`ProgramChannel.Settings`): the
    /// options, how to name its source, and where to note a trap. `colour`:
    /// whether the program writes to kvo-run's own terminal (not to a capture).
    static func programSettings(
        _ settings: Settings, display: String, sourcePath: String?, trapFile: String, colour: Bool
    ) -> ProgramChannel.Settings {
        var channel = ProgramChannel.Settings()
        channel.json = settings.format == .json
        channel.maxDepth = settings.maxDepth
        channel.sourceName = display
        channel.trapFile = trapFile
        channel.sourcePath = sourcePath
        channel.quiet = settings.quiet
        channel.legacyDealloc = settings.legacyDealloc
        channel.explain = settings.explain
        channel.keepGoing = settings.keepGoing
        channel.color = settings.color && colour
        channel.diagnosticColor = settings.diagnosticColor && colour
        return channel
    }

    /// The statement a trap or a crash stopped at, as the runtime noted it.
    static func trapLocation(_ trapFile: String) -> KVOScript.SourceLocation? {
        guard let text = try? Files.read(trapFile), let mark = ProgramChannel.TrapMark(decoding: text) else {
            return nil
        }
        return KVOScript.SourceLocation(line: mark.line, column: mark.column)
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
        settings.timeoutOrigin = .test
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
        _ diagnostic: Diagnostic, _ display: String, _ text: SourceText?, _ settings: Settings, capturing: Bool
    ) -> String {
        if settings.format == .json {
            return DiagnosticFormat.json(
                diagnostic.severity.format, diagnostic.message, line: diagnostic.location.line,
                column: diagnostic.location.column, file: display)
        }
        let color = settings.diagnosticColor && !capturing
        guard let text else {
            return DiagnosticFormat.text(
                diagnostic.severity.format, diagnostic.message, file: display, line: diagnostic.location.line,
                column: diagnostic.location.column, length: diagnostic.length, sourceLine: nil, color: color)
        }
        return diagnostic.render(file: display, source: text, color: color)
    }

    /// The line of `import Foundation`: what makes the file a Swift program,
    /// where errors about the toolchain point.
    static func importLine(of source: String) -> Int {
        // By bytes: lines split as Characters cost 270,000 instructions for
        // a 20-line program (and a CRLF file, "\r\n" being one Character,
        // was one line).
        var number = 0
        for line in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let start = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if start.starts(with: "import ".utf8) { return number }
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
        // Int() of a huge value (`--timeout 1e300`) would trap.
        abs(seconds) < 1e15 && seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
