import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// Writes a compiled program's events as `kvo-run` writes a scenario's
/// (SPEC §8), with the same formats (KVOOutput's `TextFormat`, `JSONFormat`),
/// over stdio, so that trace lines and the program's own `print`s and
/// `dump`s stay in order. For `kvo-run graph` and `kvo-run trace` the events
/// are drawn instead (`_KVOPictures`): nothing is written but an uncaught
/// exception, on standard error, as for a scenario.
final class _KVOEventOutput: EventSink {
    let json: Bool
    /// ANSI colours, as kvo-run paints a scenario's trace on a terminal.
    let color: Bool
    let diagnosticColor: Bool
    /// A run for a picture: set when kvo-run asked for one.
    var pictures: _KVOPictures?
    /// With `--format json`: the program's own writes to its standard
    /// output, made events (`_KVORawOutputCapture`).
    var capture: _KVORawOutputCapture?
    /// The depth handlers are at now: the program's own lines are printed there.
    var depthNow: () -> Int = { 0 }

    init(json: Bool, color: Bool, diagnosticColor: Bool) {
        self.json = json
        self.color = color && !json
        self.diagnosticColor = diagnosticColor && !json
    }

    private func out(_ text: String) {
        if let capture {
            capture.write(text, depth: depthNow())
        } else {
            fputs(text, stdout)
        }
    }

    /// Where the events go: standard output, or the duplicate of it that
    /// `capture` writes to.
    var stream: UnsafeMutablePointer<FILE> { capture?.events ?? stdout }

    /// Lines nested too deep to show (KVOOutput's `DeepLines`).
    private var deepLines = DeepLines()

    private func writeCutLines() {
        if let notice = deepLines.takeNotice() { out(notice) }
    }

    func emit(_ event: consuming Event) {
        // An open line (`print(…, terminator: "")`) stays before what comes
        // after it, as on a terminal, rather than joining a handler's line.
        if case .print = event {
        } else {
            _KVOPrinter.endOpenLine(_KVOProcess.shared)
        }
        if let pictures {
            pictures.add(event)
            return
        }
        if json {
            out(JSONFormat.render(event) + "\n")
            return
        }
        let text = TextFormat.render(event, color: color)
        if deepLines.leavesOut(text, depth: event.depth) { return }
        writeCutLines()
        out(text)
    }

    func uncaught(_ exception: CocoaException) {
        if let pictures {
            // Drawn (the trace's note), and said on standard error, as for a scenario.
            pictures.add(.exception(exception, caught: false))
            fflush(stdout)
            fputs(TextFormat.uncaught(exception, stopping: .app, color: diagnosticColor), stderr)
            fflush(stderr)
            return
        }
        writeCutLines()
        if json {
            out(JSONFormat.render(.exception(exception, caught: false)) + "\n")
        } else {
            out(TextFormat.uncaught(exception, stopping: .app, color: color))
        }
        fflush(stream)
    }

    func error(_ message: String, line: Int, column: Int, source: String?, file: String) {
        diagnostic(.error, message, line: line, column: column, source: source, file: file)
    }

    func warning(_ message: String, line: Int, column: Int, source: String?, file: String) {
        diagnostic(.warning, message, line: line, column: column, source: source, file: file)
    }

    func note(_ message: String, line: Int, column: Int, source: String?, file: String) {
        diagnostic(.note, message, line: line, column: column, source: source, file: file)
    }

    /// `file:line:column: severity: message`, the source line and a caret,
    /// on standard error; a JSON event on standard output with `--format json`
    /// (JSON Lines has no note event).
    private func diagnostic(
        _ severity: DiagnosticFormat.Severity, _ message: String, line: Int, column: Int, source: String?,
        file: String
    ) {
        if json {
            guard severity != .note else { return }
            out(DiagnosticFormat.json(severity, message, line: line, column: column, file: file) + "\n")
            fflush(stream)
            return
        }
        writeCutLines()
        fflush(stdout)
        let text = DiagnosticFormat.text(
            severity, message, file: file, line: line, column: column, sourceLine: source.map(Array.init),
            color: diagnosticColor)
        fputs(text + "\n", stderr)
        fflush(stderr)
    }
}
