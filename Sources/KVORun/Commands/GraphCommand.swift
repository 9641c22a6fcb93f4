import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOScript

/// `kvo-run graph FILE`: the observation graph at the end of the run (or
/// just after the statement at a line), as DOT or, through Graphviz, SVG.
public struct GraphCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the observation graph: objects, observances, dependent keys, key-path forwarding.",
        discussion: """
            Runs the scenario without printing its trace and draws the observation graph at its end, or
            just after the top-level statement starting at or before --at LINE. Writes Graphviz DOT;
            -o OUT.svg renders it with Graphviz's 'dot' (apt-get install graphviz), and without it
            writes OUT.dot and says so. See docs/explain.md.
            Examples:
              kvo-run graph scenarios/tour.kvo -o tour.svg
              kvo-run graph bank.kvo --at 12 -o bank.dot
              kvo-run graph bank.kvo | dot -Tpng -o bank.png
            """)

    @Argument(help: "The scenario to run; '-' reads standard input.")
    var file: String

    @Option(help: "Draw the state just after the top-level statement starting at or before this line.")
    var at: Int?

    @Option(name: .short, help: "Write to OUT.dot or OUT.svg (default: DOT on standard output).")
    var output: String?

    public func validate() throws {
        if let at, at <= 0 { throw ValidationError("--at must be a line number, 1 or more") }
        if let output, !output.hasSuffix(".svg") && !output.hasSuffix(".dot") {
            throw ValidationError("-o must name a .svg or a .dot file, as in '-o graph.svg'")
        }
    }

    public func run() throws {
        let (file, at, output) = (self.file, self.at, self.output)
        let status = LargeStack.run { () -> Int32 in
            let read = Runner.readSource(file)
            guard let source = read.source else { return read.status }
            let pictureOutput = PictureOutput(records: false)
            let session = Session.commandLine(options: RunOptions(), output: pictureOutput)
            var snapshot: String?
            if let at {
                // Once, after the last statement at or before the line: a DOT
                // built after every statement made a long scenario slow.
                session.afterStatement = { line, next in
                    if line <= at, next.map({ $0 > at }) ?? true {
                        snapshot = ObservationGraph.dot(from: session.boundObjects)
                    }
                }
            }
            let runStatus = session.run(source, file: file == "-" ? "<stdin>" : file)
            pictureOutput.flush()
            if runStatus == ExitStatus.scriptErrors { return runStatus }
            let dot = snapshot ?? ObservationGraph.dot(from: session.boundObjects)
            let written = GraphRendering.write(dot, to: output)
            return written != ExitStatus.success ? written : runStatus
        }
        throw ExitCode(status)
    }
}

/// DOT to a file, or SVG through Graphviz when it is installed.
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
        let dotPath = String(path.dropLast(4)) + ".dot"
        guard let program = ExternalTool.find("dot") else {
            Runner.stderr(
                "kvo-run: Graphviz's 'dot' is not installed; wrote \(dotPath) instead. To get \(path), "
                    + installAdvice + "\n")
            return PictureFile.write(dot, to: dotPath)
        }
        let temporary = path + ".tmp.dot"
        let status = PictureFile.write(dot, to: temporary)
        guard status == ExitStatus.success else { return status }
        defer { unlink(temporary) }
        // `dot` writes beside the picture, which is renamed into place only
        // when complete: a killed or failed `dot` leaves no partial picture.
        let rendered = path + ".tmp.svg"
        defer { unlink(rendered) }
        switch ExternalTool.run(program, ["-Tsvg", temporary, "-o", rendered], seconds: dotSeconds) {
        case .exited(0):
            guard rename(rendered, path) == 0 else {
                Runner.stderr("kvo-run: cannot write \(path): \(String(cString: strerror(errno)))\n")
                return ExitStatus.failure
            }
        case .timedOut:
            let limit =
                dotSeconds == dotSeconds.rounded() && dotSeconds < 1e9 ? String(Int(dotSeconds)) : "\(dotSeconds)"
            Runner.stderr(
                "kvo-run: '\(program)' took more than \(limit) s to render \(path) and was stopped; "
                    + "the DOT is in \(dotPath) (draw fewer objects, or render it yourself: dot -Tsvg \(dotPath))\n")
            _ = PictureFile.write(dot, to: dotPath)
            return ExitStatus.failure
        case .exited, .failed:
            Runner.stderr("kvo-run: '\(program)' failed to render \(path); the DOT is in \(dotPath)\n")
            _ = PictureFile.write(dot, to: dotPath)
            return ExitStatus.failure
        }
        return ExitStatus.success
    }
}
