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
    /// Which error this is, stable while the words change: the
    /// `MessageID` of the language's `RuntimeMessage` (`runtime.divisionByZero`),
    /// or `freeTextID` for words with no message case of their own. A plain
    /// string, because the message types live above this module.
    public var id: String
    public var line: Int?
    public var column: Int?
    public var limit: Limit?
    /// The innermost notifications a depth failure unwound through
    /// (`object.keyPath`, innermost first): what repeats in a runaway loop.
    public var notificationTrail: [String] = []
    public init(
        _ message: String, id: String = RuntimeFailure.freeTextID, line: Int? = nil, column: Int? = nil,
        limit: Limit? = nil
    ) {
        self.message = message
        self.id = id
        self.line = line
        self.column = column
        self.limit = limit
    }

    /// The id of a failure whose words have no message case (`MessageID.freeText`).
    public static let freeTextID = "text.freeText"
}
