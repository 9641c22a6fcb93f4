/// What a diagnostic says, as a value: an identifier that stays the same
/// while the words may change, and the words themselves. Each stage has its
/// own message type (`LexerMessage`, `ParserMessage`, `CheckerMessage`,
/// `SessionMessage`), an enum whose cases carry what the words need, in the
/// manner of swift-syntax's `DiagnosticMessage` and swift-format's
/// `Finding.Message`. Code that needs to know which problem was reported
/// compares identifiers, never the start of the text.
public protocol DiagnosticMessage: Sendable {
    /// The words, exactly as the diagnostic prints them.
    var text: String { get }
    var id: MessageID { get }
}

extension DiagnosticMessage {
    /// The enum case's name, without its associated values: the `id` of a
    /// message enum, stable for as long as the case keeps its name.
    var caseName: String {
        String(String(describing: self).prefix { $0 != "(" })
    }
}
