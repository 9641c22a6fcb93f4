/// When a Swift program's run must be over (SPEC §11.0): `--timeout S`, or
/// `kvo-run test`'s limit per Swift scenario. One deadline covers the whole
/// run — asking the toolchain its version, rewriting, checking the syntax,
/// compiling, linking and running — and is given to every child process of
/// the run (`ChildProcess.run`), so that no step gets S seconds of its own
/// again: a rewriter or a compiler that hangs is stopped like a program
/// that loops. The one-time build of the runtime is not the program's and
/// has its own bound (`RuntimeCache.buildLimit`); the run's deadline starts
/// again once the runtime is ready (`SwiftProgram.runReporting`).
struct Deadline {
    /// What set the limit, as the message of a step stopped by it says.
    enum Origin: Equatable, Sendable {
        /// `--timeout S` (a file, `graph`, `trace`, the REPL).
        case option
        /// `kvo-run test`'s limit per Swift scenario (`Golden.swiftTimeout`).
        case test
    }

    /// The limit in seconds; nil: none (a file's default).
    let seconds: Double?
    let origin: Origin
    /// The `Clock.now()` at which it passes; nil: never.
    let end: Double?

    /// `seconds` from now (or from `start`, a `Clock.now()`).
    init(seconds: Double?, origin: Origin = .option, from start: Double = Clock.now()) {
        self.seconds = seconds
        self.origin = origin
        end = seconds.map { start + $0 }
    }

    /// No limit.
    static let none = Deadline(seconds: nil)

    /// The same limit counted again from now.
    func restarted() -> Deadline { Deadline(seconds: seconds, origin: origin) }

    /// The seconds left (0 once it has passed); nil: no limit.
    var remaining: Double? { end.map { max(0, $0 - Clock.now()) } }

    var hasPassed: Bool { end.map { Clock.now() >= $0 } ?? false }

    /// What set the limit, in the words of a message: `--timeout`, or the
    /// test command's rule.
    var setBy: String {
        switch origin {
        case .option: "--timeout"
        case .test: "kvo-run test gives each Swift scenario \(SwiftProgram.formatSeconds(seconds ?? 0)) s"
        }
    }

    /// The error for a step of the run (`rewriting the program`, `compiling
    /// the program`…) stopped at this deadline: which step, the limit, what
    /// set it, that nothing ran, and what to do.
    func stopped(_ step: String) -> String {
        let advice =
            switch origin {
            case .option: "give it more time with a larger --timeout"
            case .test: "run the file alone with kvo-run to see what takes so long"
            }
        return
            "\(step) took longer than \(SwiftProgram.formatSeconds(seconds ?? 0)) s and was stopped (\(setBy)); nothing ran: \(advice)"
    }
}
