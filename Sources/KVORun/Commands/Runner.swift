import KVOCore
import KVOHost
import KVOOutput
import KVOScript
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a scenario file, standard input or the REPL with the chosen options.
enum Runner {
    /// The scenario in `file` ('-': standard input), or the exit status for
    /// why it cannot be read, which is reported here: a source past
    /// `Files.maxSourceBytes` or not UTF-8 is a script error (2), a missing
    /// file a usage error. In JSON (SPEC §8.2) the report is an `error` event
    /// on standard output naming the file, as every error is.
    static func readSource(_ file: String, format: OutputFormatKind = .text) -> (source: String?, status: Int32) {
        do {
            let path = Files.commandLinePath(file)
            return (file == "-" ? try Files.readStandardInput() : try Files.read(path), ExitStatus.success)
        } catch let failure as Files.Failure {
            if format == .json {
                // An error event naming the file, and the bad bytes' position when there is one.
                stdout(
                    DiagnosticFormat.json(.error, failure.message, position: failure.position, file: failure.path)
                        + "\n")
            } else if failure.position != nil {
                stderr("\(failure)\n")  // a diagnostic about the script, compiler-style
            } else {
                stderr("kvo-run: \(failure)\n")
            }
            return (nil, failure.isScriptError ? ExitStatus.scriptErrors : ExitStatus.usage)
        } catch {
            stderr("kvo-run: \(error)\n")
            return (nil, ExitStatus.usage)
        }
    }

    static func run(file: String?, settings options: ScenarioSettings) -> Int32 {
        let start = Clock.now()
        let renderer = options.makeRenderer()
        // The REPL's session stops for Ctrl-C: its flag is the one the
        // interrupt handler sets.
        let interactive = file == nil && isatty(0) != 0
        let session = Session.commandLine(
            options: options.runOptions, output: renderer, stop: interactive ? TerminalState.interrupt : StopFlag())
        var status: Int32
        let format = options.format
        if let file {
            let read = readSource(file, format: format)
            guard let source = read.source else { return read.status }
            if SwiftProgram.isSwift(source, file: file) {
                // Compiled by the toolchain and run as a child (SPEC §11.0).
                renderer.flush()
                if options.maxSteps != nil {
                    // A compiled program has no interpreter to count its
                    // statements: said, not silently ignored.
                    stderr(
                        "kvo-run: warning: --max-steps counts a scenario's statements and does not apply to a compiled Swift program; it stops at --timeout SECONDS, --max-depth or Ctrl-C\n"
                    )
                }
                var settings = options.swiftSettings
                settings.wantsSummary = options.stats || options.runOptions.quiet
                let (status, summary) = SwiftProgram.runReporting(
                    source, display: file == "-" ? "<stdin>" : file, path: file == "-" ? nil : file,
                    settings: settings)
                if let summary {
                    reportCounts(
                        notifications: summary.notifications, objects: summary.objects,
                        statements: summary.statements, since: start, options: options)
                } else if options.stats || options.runOptions.quiet, status != ExitStatus.scriptErrors {
                    stderr("kvo-run: nothing counted: the program ended before the runtime could count\n")
                }
                return status
            }
            status = runTimed(session, source, file: file == "-" ? "<stdin>" : file, timeout: options.timeout)
        } else if interactive {
            var repl = REPL(
                session: session, input: ReadlineInput(session: session), swiftSettings: options.swiftSettings)
            status = repl.run()
        } else {
            // Not a terminal: a script, never through readline (it would echo).
            let read = readSource("-", format: format)
            guard let source = read.source else { return read.status }
            status = runTimed(session, source, file: "<stdin>", timeout: options.timeout)
        }
        renderer.flush()
        reportCounts(
            notifications: session.kvo.notificationCount, objects: session.kvo.objectCount,
            statements: session.statementsExecuted, since: start, options: options)
        // Output that was not written is a failed run, whatever the scenario did.
        if let failure = renderer.out.failure ?? renderer.err.failure {
            recordOutputFailure(failure)
        }
        if outputFailure != nil {
            reportOutputFailure()
            status = ExitStatus.outputFailed
        }
        // Deliberately never released: the process exits next, and releasing
        // a scenario's objects one deinit at a time (a million of them in the
        // memory benchmark) takes longer than the system takes to reclaim the
        // whole process. Its output is flushed above. A leak of this run's
        // own session, not a static: nothing is shared with another run.
        _ = Unmanaged.passRetained(session)
        return status
    }

    /// Runs a scenario, stopped by a `RunWatchdog` when `timeout` passes
    /// (the session's options say `--timeout` set it).
    static func runTimed(_ session: Session, _ source: String, file: String, timeout: Double?) -> Int32 {
        guard let timeout else { return session.run(source, file: file) }
        let watchdog = RunWatchdog()
        if !watchdog.arm(seconds: timeout, flag: session.stop) {
            stderr("kvo-run: warning: cannot start the thread that enforces --timeout; the run has no time limit\n")
        }
        defer { watchdog.disarm() }
        return session.run(source, file: file)
    }

    /// `--stats`' line, or `--quiet`'s count, on standard error: the same
    /// for a scenario and a compiled Swift program.
    static func reportCounts(
        notifications: Int, objects: Int, statements: Int, since start: Double, options: ScenarioSettings
    ) {
        if options.stats {
            let elapsed = Clock.now() - start
            stderr(
                "kvo-run: \(counted(notifications, "notification")), \(counted(objects, "object")), \(counted(statements, "statement")), \(Clock.format(elapsed))\n"
            )
        } else if options.runOptions.quiet {
            // Counted, not printed: the count is what --quiet reports.
            stderr("kvo-run: \(counted(notifications, "notification")) (not shown: --quiet)\n")
        }
    }

    /// `1 notification`, `2 notifications`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The first write to standard output that failed anywhere in the
    /// process: `stdout(_:)`, and every `OutputWriter` on descriptor 1.
    /// `OutputCheck` makes the process's status non-zero when one is set.
    ///
    /// Process state by nature, not a run's: descriptor 1 belongs to the
    /// process, every run in it writes there, and the check at exit (a C
    /// callback with no context) must find it. Behind a lock, so runs on two
    /// threads may record at once.
    private static let standardOutput = Mutex(StandardOutputState())

    private struct StandardOutputState: Sendable {
        var failure: String?
        /// Whether `failure` was already said on standard error.
        var reported = false
    }

    static var outputFailure: String? { standardOutput.withLock { $0.failure } }

    static func recordOutputFailure(_ message: String) {
        standardOutput.withLock { state in
            if state.failure == nil { state.failure = message }
        }
    }

    /// Says `outputFailure` on standard error, once.
    static func reportOutputFailure() {
        let unreported: String? = standardOutput.withLock { state in
            guard let failure = state.failure, !state.reported else { return nil }
            state.reported = true
            return failure
        }
        if let unreported { stderr("kvo-run: \(unreported)\n") }
    }

    static func stdout(_ text: String) {
        if !write(text, to: 1) {
            recordOutputFailure("cannot write standard output: \(String(cString: strerror(errno)))")
        }
    }

    /// Everything kvo-run wrote is out before a child writes to the same streams.
    static func flushStandardStreams() {
        fflush(nil)
    }

    static func stderr(_ text: String) {
        _ = write(text, to: 2)  // nowhere left to report a failure
    }

    /// Writes all of `text`; false when a write fails.
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { writeFully(UnsafeRawBufferPointer($0), to: descriptor) } == 0
    }
}
