import KVOCore
import KVOOutput
import KVOScript

/// Renders events, diagnostics and runtime errors as text or JSON Lines.
/// Colour is decided per stream: `color` for events on `out`,
/// `diagnosticColor` for diagnostics on `err`.
public final class EventRenderer: ScriptOutput {
    public let format: OutputFormatKind
    public let out: OutputWriter
    public let err: OutputWriter

    /// Both streams stop the session that writes to them when they fail.
    public func connect(stop: StopFlag) {
        out.stop = stop
        err.stop = stop
    }
    public let color: Bool
    public let diagnosticColor: Bool

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
                if deepLines.leavesOut(depth: depth) { return }
                if deepLines.count > 0 { writeCutLines() }
                // The trace's hot path: bytes straight into the output buffer.
                var sink = out
                TextFormat.writeNotification(object, keyPath, observer, change, context, depth, color: color, to: &sink)
                out.endLine()
            case let other:
                let text = TextFormat.render(other, color: color)
                if deepLines.leavesOut(text, depth: other.depth) { return }
                if deepLines.count > 0 { writeCutLines() }
                out.write(text)
            }
        case .json:
            if !heldErrors.isEmpty { writeHeldErrors() }
            out.write(JSONFormat.render(event) + "\n")
        }
    }

    /// JSON `error` diagnostics not written yet: each waits for the next
    /// other event (or the end), so that among the diagnostics of one check
    /// the errors come after the warnings and the last line of a run that
    /// ends with status 2 is an error (compilers print in source order; a
    /// program reading JSON Lines looks at the last event). Order otherwise
    /// stays as things happened.
    private var heldErrors: [String] = []

    private func writeHeldErrors() {
        for line in heldErrors { out.write(line) }
        heldErrors.removeAll()
    }

    /// Lines nested too deep to show (KVOOutput's `DeepLines`).
    private var deepLines = DeepLines()

    /// One line, at the deepest indentation, for the lines just left out.
    private func writeCutLines() {
        if let notice = deepLines.takeNotice() { out.write(notice) }
    }

    public func uncaught(_ exception: CocoaException, stopping: UncaughtStop) {
        if deepLines.count > 0 { writeCutLines() }
        switch format {
        case .text: out.write(TextFormat.uncaught(exception, stopping: stopping, color: color))
        case .json: emit(.exception(exception, caught: false))
        }
    }

    public func flush() {
        if deepLines.count > 0 { writeCutLines() }
        if !heldErrors.isEmpty { writeHeldErrors() }
        out.flush()
        err.flush()
    }

    /// A diagnostic about the script: text on stderr, or a JSON event on stdout.
    public func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        if deepLines.count > 0 { writeCutLines() }
        switch format {
        case .json where diagnostic.severity == .note:
            // JSON Lines has no note event (docs/language.md#json-format).
            break
        case .text:
            out.flush()
            err.write(diagnostic.render(file: file, source: source, color: diagnosticColor) + "\n")
            err.flush()
        case .json:
            let line =
                DiagnosticFormat.json(
                    diagnostic.severity.format, diagnostic.message, line: diagnostic.location.line,
                    column: diagnostic.location.column, file: file) + "\n"
            if diagnostic.severity == .error {
                heldErrors.append(line)
            } else {
                out.write(line)
            }
        }
    }
}
