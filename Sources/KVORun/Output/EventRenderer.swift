import KVOCore
import KVOScript

/// Renders events, diagnostics and runtime errors as text or JSON Lines.
/// Colour is decided per stream: `color` for events on `out`,
/// `diagnosticColor` for diagnostics on `err`.
public final class EventRenderer: ScriptOutput {
    public let format: OutputFormatKind
    public let out: OutputWriter
    public let err: OutputWriter
    public let color: Bool
    public let diagnosticColor: Bool
    /// The run goes on after an uncaught exception (the REPL): its report
    /// must not say that the app terminated.
    public var uncaughtExceptionsGoOn = false

    public init(
        format: OutputFormatKind, out: OutputWriter, err: OutputWriter, color: Bool = false,
        diagnosticColor: Bool = false
    ) {
        self.format = format
        self.out = out
        self.err = err
        self.color = format == .text && color
        self.diagnosticColor = format == .text && diagnosticColor
    }

    public func emit(_ event: consuming Event) {
        switch format {
        case .text:
            // Matched by consuming it: the fields move out, none is copied.
            switch consume event {
            case .notify(let object, let keyPath, let observer, let change, let context, let depth):
                // The trace's hot path: bytes straight into the output buffer.
                var sink = out
                TextFormat.writeNotification(object, keyPath, observer, change, context, depth, color: color, to: &sink)
                out.endLine()
            case .exception(let exception, caught: false) where uncaughtExceptionsGoOn:
                out.write(TextFormat.uncaughtGoingOn(exception, color: color))
            case let other:
                out.write(TextFormat.render(other, color: color))
            }
        case .json: out.write(JSONFormat.render(event) + "\n")
        }
    }

    public func flush() {
        out.flush()
        err.flush()
    }

    /// A diagnostic about the script: text on stderr, or a JSON event on stdout.
    public func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        switch format {
        case .text:
            out.flush()
            err.write(diagnostic.render(file: file, source: source, color: diagnosticColor) + "\n")
            err.flush()
        case .json:
            out.write(
                JSONFormat.object([
                    ("event", JSONFormat.string(diagnostic.severity.rawValue)),
                    ("message", JSONFormat.string(diagnostic.message)),
                    ("line", String(diagnostic.location.line)),
                    ("column", String(diagnostic.location.column)),
                ]) + "\n")
        }
    }
}
