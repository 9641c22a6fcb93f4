#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// A run for a picture (`kvo-run graph`, `kvo-run trace`): the trace itself
/// is not printed, it is drawn. Diagnostics, runtime errors and an uncaught
/// exception still reach standard error, so a broken scenario says why.
final class PictureOutput: ScriptOutput {
    let errors: EventRenderer
    /// The trace's rows, built as the run goes (nil for a graph).
    let trace: TraceDiagram.Builder?
    var records: Bool { trace != nil }

    /// `classOf` names the class of an object the trace knows only by name
    /// (an observer removed before it was ever told).
    init(records: Bool, classOf: @escaping (String) -> String? = { _ in nil }) {
        trace = records ? TraceDiagram.Builder(classOf: classOf) : nil
        let err = OutputWriter(descriptor: 2)
        errors = EventRenderer(
            format: .text, out: err, err: err, color: false,
            diagnosticColor: Terminal.colorAllowed(descriptor: 2))
    }

    /// Events past `TraceDiagram.maxEvents`, counted: the picture and
    /// standard error say how many were not drawn.
    var eventsNotDrawn: Int { trace?.dropped ?? 0 }
    var eventsDrawn: Int { trace?.eventsDrawn ?? 0 }

    func emit(_ event: Event) {
        trace?.add(event)
        if case .exception(_, false) = event { errors.emit(event) }
    }

    func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        errors.report(diagnostic, file: file, source: source)
    }

    func flush() { errors.flush() }
}

/// `kvo-run graph` and `kvo-run trace` of a Swift program (SPEC §11.0): it
/// is compiled and run with the picture asked of its runtime, which draws it
/// from its own engine with the code that draws a scenario's (KVOOutput).
/// What the program prints goes to standard error, as a scenario's
/// uncaught exception does; its trace is not written.
enum SwiftPicture {
    enum Outcome {
        /// The picture, the run's status, and its counts.
        case drawn(String, status: Int32, summary: SwiftProgram.Summary)
        /// Nothing drawn, for the reason already said: end with this status.
        case failed(Int32)
    }

    static func draw(_ picture: SwiftProgram.Picture, source: String, file: String) -> Outcome {
        var settings = SwiftProgram.Settings()
        settings.picture = picture
        settings.diagnosticColor = Terminal.colorAllowed(descriptor: 2)
        let (status, summary) = SwiftProgram.runReporting(
            source, display: file == "-" ? "<stdin>" : file, path: file == "-" ? nil : file, settings: settings)
        if status == ExitStatus.scriptErrors { return .failed(status) }
        guard let summary, let drawn = summary.picture else {
            let what: String
            switch picture {
            case .graph: what = "graph"
            case .trace: what = "trace"
            }
            Runner.stderr(
                "kvo-run: \(file): the program ended before its \(what) could be drawn; nothing was written\n")
            return .failed(ExitStatus.failure)
        }
        return .drawn(drawn, status: status, summary: summary)
    }
}

/// Writes a picture: `-o OUT` or standard output.
enum PictureFile {
    static func write(_ text: String, to path: String?) -> Int32 {
        guard let path else {
            Runner.stdout(text)
            guard Runner.outputFailure == nil else {
                Runner.reportOutputFailure()
                return ExitStatus.outputFailed
            }
            return ExitStatus.success
        }
        do {
            try Files.write(text, to: path)
            return ExitStatus.success
        } catch {
            Runner.stderr("kvo-run: \(error)\n")
            return ExitStatus.failure
        }
    }
}

/// A picture asked for without a file while standard output is a terminal
/// (`kvo-run graph FILE`, `kvo-run trace FILE`, the REPL's `:graph`), where
/// DOT or SVG text is of no use to anyone: it is written to a file in a new
/// private temporary folder, named after the scenario, and the path is said.
enum TerminalPicture {
    /// Whether a picture without a file would go to a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// The suffix of the graph's file: SVG when Graphviz can render it.
    static var graphSuffix: String { ExternalTool.find("dot") != nil ? ".svg" : ".dot" }

    /// Writes the picture with `write(path)` to `folder/NAME.what.suffix` and
    /// says where (with `hint`, how to choose the place), or why not.
    static func write(
        scenario: String, what: String, suffix: String, hint: String, _ write: (String) -> Int32
    ) -> Int32 {
        guard let folder = Files.temporaryFolder() else {
            Runner.stderr(
                "kvo-run: cannot make a temporary folder for the \(what) (\(Files.errorText(errno))); \(hint)\n")
            return ExitStatus.failure
        }
        var name = Files.baseName(scenario)
        if name == "-" || name.isEmpty { name = "stdin" }
        if name.hasSuffix(".kvo") { name = String(name.dropLast(4)) }
        let path = folder + "/" + name + "." + what + suffix
        let status = write(path)
        if status == ExitStatus.success { Runner.stdout("the \(what) is in \(path) (\(hint))\n") }
        return status
    }
}
