#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// The limits every playground request runs under (`kvo-run serve`'s
/// options): the command line's own, with values for a shared server.
public struct PlaygroundLimits: Sendable, Equatable {
    /// The whole request: its runs of the scenario share it.
    public var seconds: Double = 5
    public var maxSteps = 1_000_000
    public var maxDepth = KVORuntime.defaultMaxDepth
    /// The most text one run's output keeps.
    public var maxOutputBytes = 1 << 20
    /// Swift programs run (compiled by the toolchain, as a child) only when
    /// the server was started with `--allow-swift`.
    public var allowSwift = false
    /// The most memory a Swift program's child may use (RLIMIT_DATA).
    public var swiftMemoryBytes = 2 << 30
    public init() {}
}

/// What `kvo-run serve` answers (docs/cli.md#serve): a scenario run as four
/// commands would run it (`kvo-run FILE`, `--explain`, `graph --at LINE`,
/// `trace`), in this process, each run stopped by the request's limits; a
/// Swift program run as `kvo-run FILE.swift` runs it, as a child.
///
/// One at a time, on one thread: the interpreter counts references
/// non-atomically (Package.swift), so no two scenarios may run at once in
/// one process. `kvo-run serve` queues requests for its one runner thread.
public final class Playground {
    public let limits: PlaygroundLimits
    private let watchdog = RunWatchdog()

    /// How a scenario is named in its diagnostics.
    static let scenarioName = "scenario.kvo"
    static let programName = "program.swift"

    public init(limits: PlaygroundLimits) {
        self.limits = limits
    }

    /// An HTTP status and the JSON body of the answer.
    public struct Answer: Equatable, Sendable {
        public var status: Int
        public var json: String
        public init(status: Int, json: String) {
            self.status = status
            self.json = json
        }

        static func error(_ status: Int, _ message: String) -> Answer {
            Answer(status: status, json: JSONFormat.object([("error", JSONFormat.string(message))]))
        }
    }

    static let swiftRefused =
        "Swift programs run only when the server was started with --allow-swift: a program is compiled and run as arbitrary code on the serving machine (kvo-run serve --allow-swift). Scenarios (.kvo) always run."

    /// `POST /run`: the output, the diagnostics, each top-level statement's
    /// explanation, the graph at `line` (the end when nil) and the trace.
    public func run(source: String, line: Int?) -> Answer {
        if SwiftProgram.isSwift(source, file: Self.scenarioName) {
            guard limits.allowSwift else { return .error(403, Self.swiftRefused) }
            return runSwift(source, line: line)
        }
        let budget = Budget(seconds: limits.seconds)
        let plain = PlaygroundOutput(limit: limits.maxOutputBytes)
        let status = timed(budget, options(), output: plain) { session in
            session.run(source, file: Self.scenarioName)
        }
        var fields: [(String, String)] = [
            ("language", JSONFormat.string("scenario")), ("status", String(status ?? ExitStatus.failure)),
            ("output", JSONFormat.string(plain.text)),
            ("diagnostics", "[" + plain.diagnostics.map(\.json).joined(separator: ",") + "]"),
        ]
        // A scenario that did not compile has nothing more to show; one
        // the limits stopped shows what it did in the time left.
        guard status != ExitStatus.scriptErrors else {
            fields += [("statements", "[]"), ("explain", "null"), ("graph", "null"), ("trace", "null")]
            return Answer(status: 200, json: JSONFormat.object(fields))
        }
        fields.append(("statements", explainedStatements(source, budget: budget)))
        fields.append(("explain", "null"))
        fields.append(("graph", graphJSON(source, line: line, budget: budget)))
        fields.append(("trace", traceJSON(source, budget: budget)))
        return Answer(status: 200, json: JSONFormat.object(fields))
    }

    /// `POST /graph`: the graph just after the top-level statement at or
    /// before `line`.
    public func graph(source: String, line: Int?) -> Answer {
        if SwiftProgram.isSwift(source, file: Self.scenarioName) {
            guard limits.allowSwift else { return .error(403, Self.swiftRefused) }
            return Answer(status: 200, json: swiftPicture(source, .graph(at: line), line: line))
        }
        let budget = Budget(seconds: limits.seconds)
        return Answer(status: 200, json: graphJSON(source, line: line, budget: budget))
    }

    // MARK: Scenarios

    /// The time a request has left: its runs share `limits.seconds`.
    struct Budget {
        let end: Double
        init(seconds: Double) { end = Clock.now() + seconds }
        var left: Double { end - Clock.now() }
    }

    func options(explain: Bool = false) -> RunOptions {
        var options = RunOptions()
        options.maxSteps = limits.maxSteps
        options.maxDepth = limits.maxDepth
        options.explain = explain
        options.timeLimit = .init(seconds: limits.seconds, setBy: "the playground's limit for a request")
        return options
    }

    /// Runs `body` with a session on `output`, stopped when the budget runs
    /// out; nil when none was left to start it.
    private func timed(
        _ budget: Budget, _ options: RunOptions, output: ScriptOutput, _ body: (Session) -> Int32
    ) -> Int32? {
        let session = Session.commandLine(options: options, output: output)
        session.limitAdvice = { $0.playgroundAdvice }
        defer { session.close() }
        return armed(budget, session.stop) { body(session) }
    }

    private func armed<T>(_ budget: Budget, _ stop: StopFlag, _ body: () -> T) -> T? {
        let left = budget.left
        guard left > 0 else { return nil }
        watchdog.arm(seconds: left, flag: stop)
        defer { watchdog.disarm() }
        return body()
    }

    /// `[{"line": N, "explain": TEXT}]`: what the run printed with
    /// `--explain` during each top-level statement, by the line it starts at.
    private func explainedStatements(_ source: String, budget: Budget) -> String {
        let output = PlaygroundOutput(limit: limits.maxOutputBytes)
        var starts: [(line: Int, offset: Int)] = []
        _ = timed(budget, options(explain: true), output: output) { session in
            session.beforeStatement = { location in
                output.flush()
                starts.append((location.line, output.writer.captured.count))
            }
            return session.run(source, file: Self.scenarioName)
        }
        output.flush()
        let bytes = output.writer.captured
        var byLine: [(line: Int, text: String)] = []
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].offset : bytes.count
            let text = String(decoding: bytes[min(start.offset, end)..<end], as: UTF8.self)
            if let last = byLine.last, last.line == start.line {
                byLine[byLine.count - 1].text += text
            } else {
                byLine.append((start.line, text))
            }
        }
        if let failure = output.writer.failure, !byLine.isEmpty {
            byLine[byLine.count - 1].text += "kvo-run: \(failure)\n"
        }
        return "["
            + byLine.map {
                JSONFormat.object([("line", String($0.line)), ("explain", JSONFormat.string($0.text))])
            }.joined(separator: ",") + "]"
    }

    private func graphJSON(_ source: String, line: Int?, budget: Budget) -> String {
        let errors = PlaygroundOutput(limit: limits.maxOutputBytes)
        let stop = StopFlag()
        let drawn = armed(budget, stop) {
            GraphCommand.scenarioGraph(
                source, file: Self.scenarioName, at: line, options: options(), errors: errors.renderer, stop: stop)
        }
        guard let drawn else { return "null" }
        return graphAnswer(dot: drawn.dot, line: line)
    }

    private func traceJSON(_ source: String, budget: Budget) -> String {
        let errors = PlaygroundOutput(limit: limits.maxOutputBytes)
        let stop = StopFlag()
        let traced = armed(budget, stop) {
            TraceCommand.scenarioTrace(
                source, file: Self.scenarioName, title: "kvo-run trace", options: options(), errors: errors.renderer,
                stop: stop)
        }
        guard let traced = traced ?? nil else { return "null" }
        return JSONFormat.object([("svg", JSONFormat.string(traced.svg))])
    }

    /// `{"line": N, "svg": …, "dot": …}`: the SVG when Graphviz drew it.
    func graphAnswer(dot: String, line: Int?) -> String {
        let svg = rendered(dot).map(JSONFormat.string) ?? "null"
        return JSONFormat.object([
            ("line", line.map(String.init) ?? "null"), ("svg", svg), ("dot", JSONFormat.string(dot)),
        ])
    }

    /// The last pictures Graphviz drew, by their DOT: `dot` is a process
    /// per picture (most of a request's time), it draws the same DOT the
    /// same way, and a shared link is opened by many, each asking the same
    /// graphs. At most `renderedLimit`, the oldest dropped first.
    private var renderedSVG: [String: String] = [:]
    private var renderedOrder: [String] = []
    static let renderedLimit = 64

    private func rendered(_ dot: String) -> String? {
        if let svg = renderedSVG[dot] { return svg }
        guard case .drawn(let svg) = GraphRendering.svg(dot) else { return nil }
        if renderedOrder.count >= Self.renderedLimit {
            renderedSVG[renderedOrder.removeFirst()] = nil
        }
        renderedSVG[dot] = svg
        renderedOrder.append(dot)
        return svg
    }
}
