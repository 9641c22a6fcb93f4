import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// `kvo-run graph FILE`: the observation graph at the end of the run (or
/// just after the statement at a line), as DOT or, through Graphviz, SVG.
public struct GraphCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the observation graph: objects, observances, dependent keys, key-path forwarding.",
        discussion: """
            Runs the scenario without printing its trace and draws the observation graph at its end, \
            or just after the top-level statement starting at or before --at LINE.

            Writes Graphviz DOT to standard output, or to -o OUT.dot; -o OUT.svg renders it with \
            Graphviz's 'dot' (apt-get install graphviz). Without Graphviz, OUT.svg is left as it was, \
            the DOT goes to OUT.dot unless that file exists, and the status is 1. When standard output \
            is a terminal and there is no -o, the picture goes to a temporary file and its path is \
            printed. See docs/explain.md.

            Examples:
              kvo-run graph scenarios/tour.kvo -o tour.svg
              kvo-run graph bank.kvo --at 12 -o bank.dot
              kvo-run graph bank.kvo | dot -Tpng -o bank.png
            """)

    @Argument(
        help: "The Swift program or scenario to run; '-' reads standard input.",
        completion: .file(extensions: ["kvo", "swift"]))
    var file: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Draw the state just after the top-level statement starting at or before this line.",
            valueName: "line"))
    var at: Int?

    @Option(
        name: .short,
        help: ArgumentHelp(
            "Write to OUT.dot or OUT.svg (default: DOT on standard output; on a terminal, a temporary file).",
            valueName: "file"))
    var output: String?

    public func validate() throws {
        if let at, at <= 0 { throw ValidationError("--at must be a line number, 1 or more, got \(at)") }
        if let output, !output.hasSuffix(".svg") && !output.hasSuffix(".dot") {
            throw ValidationError("-o must name a .svg or a .dot file, as in '-o graph.svg'")
        }
    }

    public func run() throws {
        let (file, at, output) = (self.file, self.at, self.output)
        let status = LargeStack.run { () -> Int32 in
            let read = Runner.readSource(file)
            guard let source = read.source else { return read.status }
            let drawn: (dot: String, status: Int32)
            if SwiftProgram.isSwift(source, file: file) {
                // The compiled program draws its own graph (SPEC §11.0).
                switch SwiftPicture.draw(.graph(at: at), source: source, file: file) {
                case .drawn(let dot, let status, _): drawn = (dot, status)
                case .failed(let status): return status
                }
            } else {
                drawn = Self.scenarioGraph(source, file: file, at: at)
                if drawn.status == ExitStatus.scriptErrors { return drawn.status }
            }
            let (dot, runStatus) = drawn
            let written =
                output == nil && TerminalPicture.outputIsTerminal
                ? TerminalPicture.write(
                    scenario: file, what: "graph", suffix: TerminalPicture.graphSuffix,
                    hint: "-o FILE writes it elsewhere; piped, the graph is DOT"
                ) { GraphRendering.write(dot, to: $0) }
                : GraphRendering.write(dot, to: output)
            return written != ExitStatus.success ? written : runStatus
        }
        throw ExitCode(status)
    }

    /// A scenario run without its trace, and its graph at the end or at `at`.
    /// `options` and `stop` set limits (`kvo-run serve`'s); `errors`
    /// renders diagnostics and uncaught exceptions (standard error).
    static func scenarioGraph(
        _ source: String, file: String, at: Int?, options: RunOptions = RunOptions(),
        errors: EventRenderer = .standardError(), stop: StopFlag = StopFlag()
    ) -> (dot: String, status: Int32) {
        let pictureOutput = PictureOutput(records: false, errors: errors)
        let session = Session.commandLine(options: options, output: pictureOutput, stop: stop)
        var snapshot: String?
        if let at {
            // Once, before the first statement past the line: the state
            // just after the last one at or before it, and nothing at
            // all when the line comes before the first (the end state
            // was drawn then). A DOT built after every statement made a
            // long scenario slow.
            session.beforeStatement = { location in
                if location.line > at, snapshot == nil {
                    snapshot = session.graph
                }
            }
        }
        let runStatus = session.run(source, file: file == "-" ? "<stdin>" : file)
        pictureOutput.flush()
        let graph = snapshot ?? session.graph
        // The hook holds the session, observances their objects: close()
        // lets go of both, so a server's runs are freed.
        session.close()
        return (graph, runStatus)
    }
}
