import ArgumentParser
import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// `kvo-run trace FILE -o OUT.svg`: the run as a sequence diagram.
public struct TraceCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Draw the run as a sequence diagram (SVG): lifelines, one arrow per notification.",
        discussion: """
            Runs the scenario without printing its trace and draws it: one lifeline per object, one \
            arrow per notification from the observed object to the observer labelled with the key path \
            and the change, nested notifications stepped in by depth, prints and exceptions as notes.

            Written by kvo-run itself; any browser shows it. Without -o the SVG goes to standard \
            output, or, when that is a terminal, to a temporary file whose path is printed. See \
            docs/explain.md.

            Example:
              kvo-run trace scenarios/objcio/01_labcolor_dependent_keys.kvo -o labcolor.svg
            """)

    @Argument(
        help: "The Swift program or scenario to run; '-' reads standard input.",
        completion: .file(extensions: ["kvo", "swift"]))
    var file: String

    @Option(
        name: .short,
        help: ArgumentHelp(
            "The SVG file to write (default: standard output; on a terminal, a temporary file).",
            valueName: "file"))
    var output: String?

    public func validate() throws {
        if let output, !output.hasSuffix(".svg") {
            throw ValidationError("-o must name an .svg file, as in '-o trace.svg'")
        }
    }

    public func run() throws {
        let (file, output) = (self.file, self.output)
        let status = LargeStack.run { () -> Int32 in
            let read = Runner.readSource(file)
            guard let source = read.source else { return read.status }
            let title = "kvo-run trace " + Files.baseName(file)
            let drawn: (svg: String, status: Int32, drawn: Int, notDrawn: Int)
            if SwiftProgram.isSwift(source, file: file) {
                // The compiled program draws its own trace (SPEC §11.0).
                switch SwiftPicture.draw(.trace(title: title), source: source, file: file) {
                case .drawn(let svg, let status, let summary):
                    drawn = (svg, status, summary.eventsDrawn, summary.eventsNotDrawn)
                case .failed(let status):
                    return status
                }
            } else {
                guard let traced = Self.scenarioTrace(source, file: file, title: title) else {
                    return ExitStatus.failure
                }
                if traced.status == ExitStatus.scriptErrors { return traced.status }
                drawn = traced
            }
            let (svg, runStatus) = (drawn.svg, drawn.status)
            if drawn.notDrawn > 0 {
                let total = drawn.drawn + drawn.notDrawn
                Runner.stderr(
                    "kvo-run: \(file): the trace has \(total) events; the picture draws the first "
                        + "\(TraceDiagram.maxEvents) and counts the rest (kvo-run \(file) prints them all as text)\n")
            }
            let written =
                output == nil && TerminalPicture.outputIsTerminal
                ? TerminalPicture.write(
                    scenario: file, what: "trace", suffix: ".svg", hint: "-o FILE writes it elsewhere"
                ) {
                    PictureFile.write(svg, to: $0)
                }
                : PictureFile.write(svg, to: output)
            return written != ExitStatus.success ? written : runStatus
        }
        throw ExitCode(status)
    }

    /// A scenario run without its trace printed, drawn: the SVG, the run's
    /// status, and the events drawn and not drawn; nil when nothing was recorded.
    /// `options` and `stop` set limits (`kvo-run serve`'s); `errors`
    /// renders diagnostics and uncaught exceptions (standard error).
    static func scenarioTrace(
        _ source: String, file: String, title: String, options: RunOptions = RunOptions(),
        errors: EventRenderer = .standardError(), stop: StopFlag = StopFlag()
    ) -> (svg: String, status: Int32, drawn: Int, notDrawn: Int)? {
        // The classes of objects bound to names, looked up when the
        // trace meets a name no event has shown (found again after each
        // statement, which may bind more).
        var classes: [String: String]?
        var session: Session?
        let pictureOutput = PictureOutput(records: true, errors: errors) { name in
            if classes == nil {
                classes = [:]
                for object in session?.boundObjects ?? [] { classes?[object.name] = object.cls.name }
            }
            return classes?[name]
        }
        // The engine's --explain steps say what caused each notification
        // and which deliveries were not made; none of them is printed.
        var options = options
        options.explain = true
        let traced = Session.commandLine(options: options, output: pictureOutput, stop: stop)
        session = traced
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        traced.beforeStatement = { location in
            classes = nil
            guard let trace = pictureOutput.trace else { return }
            // Past the events drawn, nothing more is explained: the rest
            // of the run goes at full speed.
            if trace.isFull { traced.kvo.explains = false }
            let line = location.line - 1 < lines.count && location.line > 0 ? lines[location.line - 1] : ""
            trace.startStatement(
                line: location.line, text: TraceDiagram.statementText(line))
        }
        let runStatus = traced.run(source, file: file == "-" ? "<stdin>" : file)
        pictureOutput.flush()
        // The hook and the output's class lookup hold the session, and
        // observances their objects: let go of them (close() drops the hook),
        // so a server's runs are freed.
        traced.close()
        session = nil
        guard let trace = pictureOutput.trace else { return nil }
        return (
            TraceDiagram.svg(trace, title: title), runStatus, pictureOutput.eventsDrawn,
            pictureOutput.eventsNotDrawn
        )
    }
}
