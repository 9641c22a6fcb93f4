/// What an uncaught exception stops: the words of its text line differ
/// (KVOOutput's `TextFormat.uncaught`), its event does not.
public enum UncaughtStop: Sendable {
    /// The run (Apple's "Terminating app").
    case app
    /// The top-level statement; the run goes on (`--keep-going`).
    case statement
    /// The REPL entry; the session goes on.
    case entry
}
