import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import KVOCore
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

    @Argument(help: "The scenario to run; '-' reads standard input.")
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
    static func scenarioGraph(_ source: String, file: String, at: Int?) -> (dot: String, status: Int32) {
        let pictureOutput = PictureOutput(records: false)
        let session = Session.commandLine(options: RunOptions(), output: pictureOutput)
        var snapshot: String?
        if let at {
            // Once, before the first statement past the line: the state
            // just after the last one at or before it, and nothing at
            // all when the line comes before the first (the end state
            // was drawn then). A DOT built after every statement made a
            // long scenario slow.
            session.beforeStatement = { location in
                if location.line > at, snapshot == nil {
                    snapshot = ObservationGraph.dot(from: session.boundObjects)
                }
            }
        }
        let runStatus = session.run(source, file: file == "-" ? "<stdin>" : file)
        pictureOutput.flush()
        return (snapshot ?? ObservationGraph.dot(from: session.boundObjects), runStatus)
    }
}

/// DOT to a file, or SVG through Graphviz when it is installed.
///
/// An SVG is rendered into a private temporary folder and put in place by
/// `Files.write` (a temporary file beside it, renamed over it), so `OUT.svg`
/// is replaced only by a complete picture: never half written, never by
/// `dot`'s error output. When `dot` is missing or fails, `OUT.svg` is left
/// as it was and the status is 1 (what was asked for was not made); the DOT
/// goes to `OUT.dot` only when no file of that name exists, so that no file
/// the user did not name is ever overwritten.
enum GraphRendering {
    static let installAdvice = "install Graphviz to render SVG: apt-get install graphviz (or: make setup)"

    /// How long `dot` may take to render (KVO_DOT_SECONDS overrides it):
    /// the graph handed to it is capped, but a dense one still takes long,
    /// and a wait without limit hung `graph -o x.svg` for minutes.
    static var dotSeconds: Double {
        if let text = getenv("KVO_DOT_SECONDS"), let seconds = Double(String(cString: text)), seconds > 0,
            seconds.isFinite
        {
            return seconds
        }
        return 10
    }

    static func write(_ dot: String, to path: String?) -> Int32 {
        guard let path, path.hasSuffix(".svg") else { return PictureFile.write(dot, to: path) }
        guard let program = ExternalTool.find("dot") else {
            return fallBack(dot, path, why: "Graphviz's 'dot' is not installed", advice: installAdvice)
        }
        guard let folder = Files.temporaryFolder() else {
            Runner.stderr(
                "kvo-run: cannot render \(path): cannot make a temporary folder (\(Files.errorText(errno)))\n")
            return ExitStatus.failure
        }
        defer { Files.removeFolder(folder) }
        let dotFile = folder + "/graph.dot", svgFile = folder + "/graph.svg"
        let status = PictureFile.write(dot, to: dotFile)
        guard status == ExitStatus.success else { return status }
        // `dot` renders in a private folder; the picture is put in place only
        // when complete, so a failed or killed `dot` leaves the earlier one.
        switch ExternalTool.run(program, ["-Tsvg", dotFile, "-o", svgFile], seconds: dotSeconds) {
        case .exited(0):
            guard let svg = try? Files.read(svgFile, regularOnly: true, limit: maxSVGBytes) else {
                return fallBack(dot, path, why: "'\(program)' failed to render it", advice: nil)
            }
            return PictureFile.write(svg, to: path)
        case .timedOut:
            let limit =
                dotSeconds == dotSeconds.rounded() && dotSeconds < 1e9 ? String(Int(dotSeconds)) : "\(dotSeconds)"
            return fallBack(
                dot, path, why: "'\(program)' took more than \(limit) s to render it and was stopped",
                advice: nil, hint: "draw fewer objects, or render it yourself with dot -Tsvg")
        case .exited, .failed:
            return fallBack(dot, path, why: "'\(program)' failed to render it", advice: nil)
        }
    }

    /// The most SVG read back from `dot`.
    static let maxSVGBytes = 256 << 20

    /// `path` (an .svg) could not be drawn: says why, and writes the DOT
    /// beside it as `X.dot` unless a file of that name is there already.
    static func fallBack(_ dot: String, _ path: String, why: String, advice: String?, hint: String? = nil) -> Int32 {
        let dotPath = String(path.dropLast(4)) + ".dot"
        var message = "kvo-run: \(why), so \(path) was not drawn (left as it was); "
        if Files.exists(dotPath) {
            message +=
                "\(dotPath) exists and was left alone; write the DOT with '-o \(dotPath)' or pipe it"
                + " from 'kvo-run graph FILE'"
        } else if PictureFile.write(dot, to: dotPath) == ExitStatus.success {
            message += "its DOT is in \(dotPath)"
        } else {
            return ExitStatus.failure
        }
        if let advice { message += ". To get \(path), " + advice }
        if let hint { message += " (" + hint + ")" }
        Runner.stderr(message + "\n")
        return ExitStatus.failure
    }
}
