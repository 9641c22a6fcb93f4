import KVOCore

/// How a scenario runs (the command line's options).
public struct RunOptions: Sendable {
    public var format: OutputFormatKind = .text
    public var keepGoing = false
    public var maxDepth = 1000
    public var maxSteps = Int.max
    public var quiet = false
    public var color = false
    public init() {}
}

/// Exit statuses of SPEC §9.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let scriptErrors: Int32 = 2
    public static let usage: Int32 = 64
}

/// A running interpreter: engine, machine and checker, kept across REPL
/// entries so objects, observations and bindings persist.
public final class Session {
    public let renderer: EventRenderer
    public let kvo: KVORuntime
    let machine: Machine
    let compiler: Compiler
    public let options: RunOptions

    public init(options: RunOptions, out: OutputWriter, err: OutputWriter) {
        self.options = options
        renderer = EventRenderer(format: options.format, out: out, err: err)
        renderer.quiet = options.quiet
        renderer.color = options.color
        kvo = KVORuntime(sink: renderer)
        kvo.maxDepth = options.maxDepth
        machine = Machine(kvo: kvo)
        machine.maxSteps = options.maxSteps
        compiler = Compiler(machine: machine)
    }

    public var statementsExecuted: Int { machine.steps }

    /// Parses and checks `source`, reporting every diagnostic; returns the
    /// compiled statements, or nil when there are errors.
    func load(_ source: String, file: String) -> [CompiledStatement]? {
        let text = SourceText(source)
        let (statements, syntaxDiagnostics) = Parser.parse(source)
        if syntaxDiagnostics.contains(where: { $0.severity == .error }) {
            for diagnostic in syntaxDiagnostics { renderer.report(diagnostic, file: file, source: text) }
            return nil
        }
        compiler.diagnostics = []
        let compiled = compiler.compileProgram(statements)
        let diagnostics = compiler.diagnostics.sorted { $0.location < $1.location }
        compiler.diagnostics = []
        for diagnostic in diagnostics { renderer.report(diagnostic, file: file, source: text) }
        if diagnostics.contains(where: { $0.severity == .error }) { return nil }
        return compiled
    }

    /// `kvo-run check`: parse and check only.
    public func check(_ source: String, file: String) -> Int32 {
        let status = load(source, file: file) == nil ? ExitStatus.scriptErrors : ExitStatus.success
        renderer.out.flush()
        return status
    }

    /// Runs a scenario (or a REPL entry) and returns its exit status.
    public func run(_ source: String, file: String) -> Int32 {
        defer { renderer.out.flush() }
        guard let statements = load(source, file: file) else { return ExitStatus.scriptErrors }
        let text = SourceText(source)
        var status = ExitStatus.success
        for statement in statements {
            do {
                _ = try statement.exec(machine)
            } catch ScriptError.exception(let exception) {
                renderer.emit(.exception(exception, caught: false))
                status = ExitStatus.failure
                if !options.keepGoing { break }
            } catch ScriptError.runtime(let failure) {
                let location = SourceLocation(line: failure.line ?? statement.location.line,
                                              column: failure.column ?? statement.location.column)
                renderer.report(Diagnostic(.error, failure.message, at: location), file: file, source: text)
                status = ExitStatus.failure
                if !options.keepGoing { break }
            } catch {
                renderer.report(Diagnostic(.error, "internal error: \(error)", at: statement.location), file: file, source: text)
                status = ExitStatus.failure
                break
            }
        }
        return status
    }
}
