import KVOCore

/// Where a session's output goes: the engine's and the interpreter's events,
/// and diagnostics about the scenario. The language never writes to a file or
/// a terminal itself; KVORun's `EventRenderer` renders both as text or JSON.
public protocol ScriptOutput: EventSink {
    /// A diagnostic about `source` (read from `file`).
    func report(_ diagnostic: Diagnostic, file: String, source: SourceText)
    /// Writes out what is buffered: the end of a run or of a REPL entry.
    func flush()
    /// An exception no `do/catch` handled, and what it stopped. Its event is
    /// the same whatever it stopped; only the text's words differ.
    func uncaught(_ exception: CocoaException, stopping: UncaughtStop)
}

/// What an uncaught exception stops.
public enum UncaughtStop: Sendable {
    /// The run (Apple's "Terminating app").
    case app
    /// The top-level statement; the run goes on (`--keep-going`).
    case statement
    /// The REPL entry; the session goes on.
    case entry
}

extension ScriptOutput {
    public func uncaught(_ exception: CocoaException, stopping: UncaughtStop) {
        emit(.exception(exception, caught: false))
    }
}
