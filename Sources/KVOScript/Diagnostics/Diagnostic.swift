import KVOCore
import KVOOutput

/// A problem with a scenario, reported compiler-style (docs/language.md#diagnostics).
public struct Diagnostic: Error, Equatable, Sendable {
    public enum Severity: String, Sendable {
        case error, warning
        /// More about what was just reported (where an uncaught exception was
        /// raised, where a loop started): text only, never a JSON event, whose
        /// kinds docs/language.md#json-format fixes.
        case note
    }

    public var severity: Severity
    /// The words, as printed.
    public var message: String
    /// Which problem this is: what code that reacts to one kind of problem
    /// compares, rather than the words.
    public var id: MessageID
    public var location: SourceLocation
    /// Characters the caret line underlines.
    public var length: Int

    public init(
        _ severity: Severity = .error, _ message: some DiagnosticMessage, at location: SourceLocation, length: Int = 1
    ) {
        self.init(severity, message.text, id: message.id, at: location, length: length)
    }

    /// A diagnostic whose words come from elsewhere (a Swift compiler's
    /// output, a compiled program's failure): no message case of its own.
    public init(
        _ severity: Severity = .error, _ message: String, id: MessageID = .freeText, at location: SourceLocation,
        length: Int = 1
    ) {
        self.severity = severity
        self.message = message
        self.id = id
        self.location = location
        self.length = max(1, length)
    }

    /// `file:line:col: error: message`, the source line and a caret under
    /// the range, as KVOOutput's `DiagnosticFormat` writes every diagnostic
    /// (a compiled Swift program's runtime too).
    public func render(file: String, source: SourceText, color: Bool = false) -> String {
        DiagnosticFormat.text(
            severity.format, message, file: file, line: location.line, column: location.column, length: length,
            sourceLine: source.lineCharacters(location.line), color: color)
    }
}

extension Diagnostic.Severity {
    /// The same severity, as KVOOutput spells it.
    public var format: DiagnosticFormat.Severity {
        switch self {
        case .error: return .error
        case .warning: return .warning
        case .note: return .note
        }
    }
}
