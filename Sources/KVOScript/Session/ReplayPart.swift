/// One top-level statement of an entry as `:save` keeps it, or the marker
/// between entries: data, which the REPL writes out (`REPLWording.saved`).
public enum ReplayPart: Equatable, Sendable {
    /// Declarations and completed statements, as typed.
    case asTyped(String)
    /// A statement that raised an uncaught exception, to run inside
    /// `do { } catch { }` so the file runs on past it with the same effects.
    case caught(String)
    /// A statement left out, as a comment saying why.
    case commentedOut(String, because: Reason)
    /// `Session.entryMarker`: a later entry replaces a declaration.
    case entryMarker

    public enum Reason: Equatable, Sendable {
        /// A `let`/`var` whose initializer raised: it bound nothing.
        case raisedAndBoundNothing
        case stoppedByRuntimeError
        /// An earlier statement of its entry stopped.
        case notRun
    }
}
