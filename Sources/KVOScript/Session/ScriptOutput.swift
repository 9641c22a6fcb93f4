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
    /// The running session's stop flag, which output that can no longer be
    /// written sets (a print loop into a closed pipe must end).
    func connect(stop: StopFlag)
}

extension ScriptOutput {
    public func connect(stop: StopFlag) {}

    public func uncaught(_ exception: CocoaException, stopping: UncaughtStop) {
        emit(.exception(exception, caught: false))
    }
}
