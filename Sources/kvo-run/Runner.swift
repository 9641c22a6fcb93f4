import KVOCore
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// Runs a scenario file, standard input or the REPL with the chosen options.
enum Runner {
    static func makeSession(_ options: RunOptions) -> Session {
        Session(options: options, out: OutputWriter(descriptor: 1), err: OutputWriter(descriptor: 2))
    }

    static func readSource(_ file: String) -> String? {
        if file == "-" { return Files.readStandardInput() }
        do {
            return try Files.read(file)
        } catch {
            stderr("kvo-run: \(error)\n")
            return nil
        }
    }

    static func run(file: String?, options: ScenarioOptions) -> Int32 {
        let runOptions = options.runOptions
        let start = Clock.now()
        let session = makeSession(runOptions)
        let status: Int32
        if let file {
            guard let source = readSource(file) else { return ExitStatus.usage }
            status = session.run(source, file: file == "-" ? "<stdin>" : file)
        } else if isatty(0) != 0 {
            var repl = REPL(session: session, input: ReadlineInput(session: session))
            status = repl.run()
        } else {
            // Not a terminal: a script, never through readline (it would echo).
            status = session.run(Files.readStandardInput(), file: "<stdin>")
        }
        session.renderer.out.flush()
        session.renderer.err.flush()
        if options.stats {
            let elapsed = Clock.now() - start
            stderr("kvo-run: \(session.kvo.notificationCount) notifications, \(session.kvo.objectCount) objects, \(session.statementsExecuted) statements, \(Clock.format(elapsed))\n")
        }
        finishedSession = session
        return status
    }

    /// The finished run's session, kept until the process exits, which it
    /// does next: releasing a scenario's objects one deinit at a time (a
    /// million of them in the memory benchmark) takes longer than the system
    /// takes to reclaim the whole process. Its output is flushed above.
    nonisolated(unsafe) private static var finishedSession: Session?

    static func stdout(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }

    static func stderr(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

enum Terminal {
    /// Colour only on a terminal, never with NO_COLOR or TERM=dumb.
    static func colorAllowed(descriptor: Int32) -> Bool {
        if getenv("NO_COLOR") != nil { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(descriptor) != 0
    }
}

enum Clock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func format(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000 * 10).rounded() / 10
        return "\(milliseconds) ms"
    }
}

/// Runs the interpreter on a thread with a large stack, so deep (but bounded)
/// scenario recursion never meets the main thread's 8 MB limit.
enum LargeStack {
    private final class Job: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static let stackSize: UInt = 1 << 30

    static func run<T>(_ body: @escaping () -> T) -> T {
        var result: T?
        let job = Job {
            StackGuard.registerCurrentThread(stackSize: stackSize, margin: 64 << 20)
            result = body()
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Int(stackSize))
        var thread = pthread_t()
        let unmanaged = Unmanaged.passRetained(job)
        let created = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, unmanaged.toOpaque())
        if created == 0 {
            pthread_join(thread, nil)
        } else {
            unmanaged.release()
            job.body()
        }
        if let result { return result }
        return body()
    }
}
