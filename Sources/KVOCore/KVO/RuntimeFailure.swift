/// A runtime error that is not a Cocoa exception (docs/language.md#diagnostics): ends the run with
/// status 1. The interpreter attaches the location of the statement.
public struct RuntimeFailure: Equatable, Sendable {
    /// The limit a run went past. The message does not say how to raise it:
    /// that depends on the front end (a command-line flag, a REPL command),
    /// which adds its own advice.
    public enum Limit: Sendable {
        /// Nesting of notifications and calls (`maxDepth`).
        case depth
        /// Statements executed (`maxSteps`).
        case steps
        /// Nesting the interpreter's stack allows, below `maxDepth`.
        case stack
    }

    public var message: String
    public var line: Int?
    public var column: Int?
    public var limit: Limit?
    /// The innermost notifications a depth failure unwound through
    /// (`object.keyPath`, innermost first): what repeats in a runaway loop.
    public var notificationTrail: [String] = []
    public init(_ message: String, line: Int? = nil, column: Int? = nil, limit: Limit? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.limit = limit
    }
}
