import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// A playground run's output: the text `kvo-run --no-color FILE` prints,
/// standard output and standard error interleaved in one capture of at most
/// `limit` bytes, and every diagnostic kept as a value too, so the page can
/// show it at its line.
final class PlaygroundOutput: ScriptOutput {
    let writer: OutputWriter
    let renderer: EventRenderer
    private(set) var diagnostics: [PlaygroundDiagnostic] = []

    init(limit: Int) {
        writer = OutputWriter(capturing: ())
        writer.captureLimit = limit
        renderer = EventRenderer(format: .text, out: writer, err: writer)
    }

    func emit(_ event: consuming Event) { renderer.emit(event) }

    func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        diagnostics.append(
            PlaygroundDiagnostic(
                severity: diagnostic.severity.rawValue, line: diagnostic.location.line,
                column: diagnostic.location.column, message: diagnostic.message))
        renderer.report(diagnostic, file: file, source: source)
    }

    func uncaught(_ exception: CocoaException, stopping: UncaughtStop) {
        renderer.uncaught(exception, stopping: stopping)
    }

    func flush() { renderer.flush() }

    func connect(stop: StopFlag) { renderer.connect(stop: stop) }

    /// Everything written, and why the capture stopped when it did (the
    /// limit): said last, as the command line says it on standard error.
    var text: String {
        renderer.flush()
        var text = writer.capturedText
        if let failure = writer.failure {
            if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
            text += "kvo-run: \(failure)\n"
        }
        return text
    }
}

/// A diagnostic as the page shows it at its line.
struct PlaygroundDiagnostic: Equatable {
    var severity: String
    var line: Int
    var column: Int
    var message: String

    var json: String {
        JSONFormat.object([
            ("severity", JSONFormat.string(severity)), ("line", String(line)), ("column", String(column)),
            ("message", JSONFormat.string(message)),
        ])
    }
}
