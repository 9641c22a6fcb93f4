import KVOCore

/// A running interpreter: engine, machine and checker, kept across REPL
/// entries so objects, observations and bindings persist.
public final class Session {
    public let output: ScriptOutput
    public private(set) var kvo: KVORuntime
    private(set) var machine: Machine
    private(set) var compiler: Compiler
    public private(set) var options: RunOptions
    /// Ctrl-C and failed output ask this session's run to stop: its own
    /// flag, so two sessions (on two threads) never stop each other.
    public let stop: StopFlag
    /// What to tell the user when a run goes past a limit: how to raise it
    /// depends on the front end (a command-line flag, a REPL command).
    public var limitAdvice: (RuntimeFailure.Limit) -> String? = { _ in nil }
    /// Added to a problem raised in code an earlier REPL entry declared, which
    /// has no text any more (the statement that called it is shown): the
    /// REPL's words.
    public var earlierEntryNote = ""
    /// Called before each top-level statement runs, with where it starts:
    /// `kvo-run graph --at LINE` takes its picture once, before the first
    /// statement past LINE (so before anything ran when LINE comes first),
    /// and `kvo-run trace` names the statement that caused what follows.
    public var beforeStatement: ((_ location: SourceLocation) -> Void)?

    public init(options: RunOptions, output: ScriptOutput, stop: StopFlag = StopFlag()) {
        self.options = options
        self.output = output
        self.stop = stop
        output.connect(stop: stop)
        (kvo, machine, compiler) = Session.makeInterpreter(output, options, stop)
    }

    private static func makeInterpreter(
        _ output: ScriptOutput, _ options: RunOptions, _ stop: StopFlag
    ) -> (KVORuntime, Machine, Compiler) {
        let kvo = KVORuntime(sink: output)
        kvo.maxDepth = options.maxDepth
        kvo.reportsNotifications = !options.quiet
        kvo.explains = options.explain
        kvo.legacyDealloc = options.legacyDealloc
        let machine = Machine(kvo: kvo, stop: stop)
        machine.maxSteps = options.maxSteps
        machine.timeLimit = options.timeLimit
        return (kvo, machine, Compiler(machine: machine))
    }

    /// Forgets every class, object, variable and observation (the REPL's `:reset`).
    public func reset() {
        close()
        (kvo, machine, compiler) = Session.makeInterpreter(output, options, stop)
    }

    public var statementsExecuted: Int { machine.totalSteps }

    /// Changes the limits from now on, `:reset` included (the REPL's `:set`).
    public func setLimits(maxDepth: Int? = nil, maxSteps: Int? = nil) {
        if let maxDepth {
            options.maxDepth = maxDepth
            kvo.maxDepth = maxDepth
        }
        if let maxSteps {
            options.maxSteps = maxSteps
            machine.maxSteps = maxSteps
        }
    }

    /// How the last `run` ended, for the REPL's `:save`.
    public enum Ending: Equatable {
        case completed
        case scriptErrors
        case uncaughtException
        case runtimeError
    }
    public private(set) var lastEnding = Ending.completed

    /// Parses and checks `source`, reporting every diagnostic; returns the
    /// compiled statements, or nil when there are errors. `interactive` (the
    /// REPL) lets a declaration replace an earlier entry's.
    func load(_ source: String, file: String, interactive: Bool = false) -> Program? {
        let text = SourceText(source)
        let (statements, starts, syntaxDiagnostics) = Parser.parseWithStarts(source)
        if syntaxDiagnostics.contains(where: { $0.severity == .error }) {
            report(syntaxDiagnostics, file: file, source: text)
            return nil
        }
        let checker = Checker(environment: compiler.environment)
        checker.replacesEarlierDeclarations = interactive
        checker.check(statements)
        let diagnostics = checker.diagnostics.sorted { $0.location < $1.location }
        report(diagnostics, file: file, source: text)
        if checker.hasErrors { return nil }
        return Program(
            statements: statements, starts: starts, compiled: compiler.compile(statements, checked: checker.checked))
    }

    /// Diagnostics shown per source line; the rest of that line's are counted
    /// in one closing message, so a line of garbage cannot flood the output.
    static let diagnosticsPerLine = 10
    /// Diagnostics shown in all, as compilers stop after a limit: 3 MB of
    /// junk gave 38,621 errors (7.3 MB on standard error). The rest are
    /// counted in one last error, which JSON reports as an `error` event.
    static let diagnosticsLimit = 100

    /// Reports diagnostics (sorted by location), at most `diagnosticsPerLine`
    /// for any one line and `diagnosticsLimit` in all; a long line is shown as
    /// a window around the column.
    private func report(_ diagnostics: [Diagnostic], file: String, source: SourceText) {
        var index = 0
        var reported = 0
        while index < diagnostics.count {
            if reported == Session.diagnosticsLimit {
                let next = diagnostics[index]
                output.report(
                    Diagnostic(
                        .error,
                        SessionMessage.tooManyErrors(
                            notShown: diagnostics.count - index, limit: Session.diagnosticsLimit),
                        at: next.location, length: next.length), file: file, source: source)
                return
            }
            let line = diagnostics[index].location.line
            var end = index
            while end < diagnostics.count && diagnostics[end].location.line == line { end += 1 }
            let shown = min(end - index, Session.diagnosticsPerLine, Session.diagnosticsLimit - reported)
            for diagnostic in diagnostics[index..<(index + shown)] {
                output.report(diagnostic, file: file, source: source)
            }
            reported += shown
            if shown == end - index {
                index = end
            } else if shown == Session.diagnosticsPerLine && reported < Session.diagnosticsLimit {
                let last = diagnostics[index + shown - 1]
                output.report(
                    Diagnostic(
                        .error, SessionMessage.moreErrorsOnLine(end - index - shown), at: last.location,
                        length: last.length), file: file, source: source)
                reported += 1
                index = end
            } else {
                index += shown
            }
        }
    }

    /// `kvo-run check`: parse and check only. A file saved from a REPL
    /// session that redeclared something is checked entry by entry.
    public func check(_ source: String, file: String) -> Int32 {
        var status = ExitStatus.success
        for entry in Self.entries(of: source) ?? [source] {
            let interactive = entry.count != source.count
            let program = Suggestion.Work.$current.withValue(Suggestion.Work()) {
                load(entry, file: file, interactive: interactive)
            }
            if program == nil {
                status = ExitStatus.scriptErrors
                break
            }
        }
        output.flush()
        return status
    }

    /// Runs a scenario and returns its exit status.
    public func run(_ source: String, file: String) -> Int32 {
        guard let entries = Self.entries(of: source) else { return execute(source, file: file, echo: nil).status }
        // A file `:save`d after a redeclaration: its entries run one after
        // another as the REPL ran them, so a later declaration replaces an
        // earlier one for what follows. Notes point into the whole file.
        let whole = SourceText(source)
        var status = ExitStatus.success
        for entry in entries {
            let execution = execute(entry, file: file, echo: nil, replacing: true, shownText: whole)
            guard execution.status != ExitStatus.success else { continue }
            if status == ExitStatus.success { status = execution.status }
            if execution.program == nil || !options.keepGoing { break }
        }
        return status
    }

    /// The line `:save` writes before an entry that redeclared a class, a
    /// function or a context of an earlier entry. Elsewhere in a file a
    /// redeclaration is an error (§4); a file with these lines runs each
    /// part after the parts before it, as the REPL ran the entries, so that
    /// the saved file prints what the session printed (SPEC §10.1).
    public static let entryMarker = "// kvo-run: next entry"

    /// `source` cut at its entry markers, each part padded with blank lines
    /// so that its line numbers are the file's; nil when it has none.
    static func entries(of source: String) -> [String]? {
        guard UTF8Search.contains(entryMarker, in: source) else { return nil }
        var parts: [String] = []
        var part = ""
        var linesBefore = 0
        var lineNumber = 0
        // By scalars: with CRLF line endings "\r\n" is one Character.
        for line in source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = Substring(line).drop { $0 == " " || $0 == "\t" }
            if text.hasPrefix(entryMarker) {
                parts.append(String(repeating: "\n", count: linesBefore) + part)
                part = ""
                linesBefore = lineNumber
                continue
            }
            if lineNumber > linesBefore + 1 { part += "\n" }
            part += String(Substring(line))
        }
        parts.append(String(repeating: "\n", count: linesBefore) + part)
        return parts.count > 1 ? parts : nil
    }

    /// A checked and compiled program: its statements, where each begins
    /// (aligned with `statements`), and the code of those that run.
    struct Program {
        var statements: [Stmt]
        var starts: [SourceLocation]
        var compiled: [CompiledStatement]

        /// Where the top-level statement that includes `location` begins.
        func start(of location: SourceLocation) -> SourceLocation {
            starts.last { $0 <= location } ?? location
        }

        /// Whether `inner` lies within the top-level statement at `location` of `source`.
        func statement(at location: SourceLocation, contains inner: SourceLocation, in source: SourceText) -> Bool {
            let start = start(of: location)
            let next = starts.first { $0 > start }
            guard inner >= start, next.map({ inner < $0 }) ?? true else { return false }
            guard let line = source.lineCharacters(inner.line) else { return false }
            return inner.column <= line.count + 1
        }
    }

    /// How one top-level statement of a run ended.
    enum StatementOutcome: Equatable {
        case completed
        /// An uncaught Cocoa exception stopped it.
        case raised
        /// A runtime error (or an interrupt) stopped it.
        case failed
        case notRun
    }

    /// What `execute` did: the parsed program (nil when it had errors) and
    /// how each compiled statement ended.
    struct Execution {
        var status: Int32
        var program: Program?
        var outcomes: [StatementOutcome] = []
    }

    /// Runs `source`; with `echo`, top-level expression statements hand it
    /// the description of their value when it is not nil (the REPL).
    /// `replacing`: a declaration may replace an earlier entry's (the REPL,
    /// and the entries of a saved session). `shownText`: the whole file,
    /// when `source` is one entry of it, for the source lines of notes.
    func execute(
        _ source: String, file: String, echo: ((String) -> Void)?, replacing: Bool? = nil,
        shownText: SourceText? = nil
    ) -> Execution {
        // One budget for the "did you mean" suggestions of the run: parsing,
        // checking and running share it.
        Suggestion.Work.$current.withValue(Suggestion.Work()) {
            executeStatements(
                source, file: file, echo: echo, replacing: replacing ?? (echo != nil), shownText: shownText)
        }
    }

    private func executeStatements(
        _ source: String, file: String, echo: ((String) -> Void)?, replacing: Bool, shownText: SourceText?
    ) -> Execution {
        defer { output.flush() }
        // A failure of an earlier run's output (the REPL) must not stop this one.
        if machine.stop.pending == .outputFailed { machine.stop.clear() }
        lastEnding = .completed
        compiler.echoesExpressions = echo != nil
        guard let program = load(source, file: file, interactive: replacing) else {
            lastEnding = .scriptErrors
            return Execution(status: ExitStatus.scriptErrors, program: nil)
        }
        let text = shownText ?? SourceText(source)
        var execution = Execution(status: ExitStatus.success, program: program)
        execution.outcomes = Array(repeating: .notRun, count: program.compiled.count)
        for (index, statement) in program.compiled.enumerated() {
            beforeStatement?(statement.location)
            // The checked lane audits the machine and the engine after every
            // statement, however it ended (empty in other builds).
            defer { machine._checkInvariants() }
            do {
                let value = try statement.exec(machine)
                execution.outcomes[index] = .completed
                if statement.echoes, let echo, let value, statement.echoesNil || !value.isNull,
                    let description = try? Operators.joinedDescriptions([value], meter: machine.kvo.work)
                {
                    output.flush()
                    echo(description)
                }
            } catch ScriptError.exception(let exception) {
                reportUncaught(exception, in: statement, of: program, file: file, text: text, repl: echo != nil)
                execution.outcomes[index] = .raised
                execution.status = ExitStatus.failure
                lastEnding = .uncaughtException
                if !options.keepGoing { break }
            } catch ScriptError.runtime(let failure) {
                reportFailure(failure, in: statement, of: program, file: file, text: text, repl: echo != nil)
                execution.outcomes[index] = .failed
                execution.status = ExitStatus.failure
                lastEnding = .runtimeError
                if !options.keepGoing { break }
            } catch {
                output.report(
                    Diagnostic(.error, SessionMessage.internalError("\(error)"), at: statement.location), file: file,
                    source: text)
                execution.outcomes[index] = .failed
                execution.status = ExitStatus.failure
                lastEnding = .runtimeError
                break
            }
        }
        machine.endPendingPrint()
        return execution
    }
}

extension Session {
    /// An uncaught exception: Apple's line (words by what it stopped), then a
    /// note at the statement that raised it.
    fileprivate func reportUncaught(
        _ exception: CocoaException, in statement: CompiledStatement, of program: Program, file: String,
        text: SourceText, repl: Bool
    ) {
        output.uncaught(exception, stopping: repl ? .entry : options.keepGoing ? .statement : .app)
        guard let line = exception.line, let column = exception.column else { return }
        let (location, whence) = shown(
            SourceLocation(line: line, column: column), of: statement, in: program, text: text, repl: repl)
        let note = SessionMessage.uncaughtRaisedHere(exceptionName: exception.name, whence: whence)
        output.report(Diagnostic(.note, note, at: location), file: file, source: text)
    }

    /// A runtime error at the statement that raised it; a notification loop
    /// is named, with a note at the statement that started it, and a limit
    /// gets the front end's advice.
    fileprivate func reportFailure(
        _ failure: RuntimeFailure, in statement: CompiledStatement, of program: Program, file: String,
        text: SourceText, repl: Bool
    ) {
        let raisedAt = SourceLocation(
            line: failure.line ?? statement.location.line, column: failure.column ?? statement.location.column)
        let start = program.start(of: statement.location)
        var location: SourceLocation, whence = ""
        let loop = Self.notificationLoop(failure.notificationTrail)
        if loop != nil {
            // In the REPL the handler's line may be another entry's: the statement that started it instead.
            location = repl ? start : raisedAt
        } else {
            (location, whence) = shown(raisedAt, of: statement, in: program, text: text, repl: repl)
        }
        let advice = failure.limit.flatMap(limitAdvice)
        let message = SessionMessage.runtimeError(failure.message, loop: loop, whence: whence, advice: advice)
        output.report(Diagnostic(.error, message, at: location), file: file, source: text)
        if loop != nil, location != start {
            output.report(Diagnostic(.note, SessionMessage.loopStartedHere, at: start), file: file, source: text)
        }
    }

    /// Where to show a problem raised at `location` while `statement` ran, and
    /// words to add to its message. In the REPL, code an earlier entry
    /// declared has no text any more: the statement that called it is shown.
    fileprivate func shown(
        _ location: SourceLocation, of statement: CompiledStatement, in program: Program, text: SourceText, repl: Bool
    ) -> (SourceLocation, String) {
        guard repl, !program.statement(at: statement.location, contains: location, in: text) else {
            return (location, "")
        }
        return (program.start(of: statement.location), earlierEntryNote)
    }
}

/// What the REPL asks of a session: names for Tab completion and summaries
/// for meta-commands.
extension Session {
    public static let keywords = Keyword.allCases.map(\.rawValue) + ["context", "print", "assert"]

    /// Variables, classes, contexts and functions in scope at top level.
    public var namesInScope: [String] {
        compiler.environment.globalNames.keys.sorted()
    }

    /// The value a top-level name holds now, if it is a variable.
    func globalValue(_ name: String) -> Value? {
        guard case .global(let slot, _, _)? = compiler.environment.globalNames[name],
            machine.globals.indices.contains(slot)
        else { return nil }
        return machine.globals[slot]
    }

    /// The class of the object a variable holds, or of its declared type.
    private func scriptClass(ofVariable name: String) -> ScriptClass? {
        if case .object(let object)? = globalValue(name) { return machine.classes[ObjectIdentifier(object.cls)] }
        if case .global(_, _, let type)? = compiler.environment.globalNames[name] { return type }
        return nil
    }

    /// Property and method names after `name.`.
    public func memberNames(ofVariable name: String) -> [String] {
        guard let cls = scriptClass(ofVariable: name) else { return [] }
        return Array(Set(cls.info.properties.map(\.name) + cls.allMethodNames + ["observationInfo"])).sorted()
    }

    /// Completions of a partial key path (`account.bal`) from the object a
    /// variable holds; a completion ends with `.` when it names a to-one
    /// relationship, so typing can go on.
    public func keyPathCompletions(ofVariable name: String, partial: String) -> [String] {
        guard var cls = scriptClass(ofVariable: name) else { return [] }
        var components = partial.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        for key in components {
            guard let property = cls.info.property(named: key), case .object(let typeName) = property.type,
                let next = compiler.environment.classes[typeName]
            else { return [] }
            cls = next
        }
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        return cls.info.properties.filter { $0.name.hasPrefix(last) }.map { property in
            if case .object = property.type { return prefix + property.name + "." }
            return prefix + property.name
        }.sorted()
    }

    /// `:info NAME`: prints the observation info of the object a top-level
    /// variable holds, as `print(NAME.observationInfo)` would; returns what is
    /// wrong instead when NAME is not such a variable. The argument is only
    /// ever looked up as a name: meta-command arguments are not source.
    public func showObservationInfo(of name: String) -> ObservationInfoProblem? {
        guard Session.isIdentifier(name) else { return .notAName(shown: ControlCharacters.escaping(name)) }
        guard let value = globalValue(name) else {
            return .noVariable(name, suggestion: Suggestion.didYouMean(name, in: namesInScope))
        }
        guard case .object(let object) = value else { return .notAnObject(name, typeName: value.typeName) }
        if object.isReleased { return .released(name, description: object.description) }
        output.emit(.observationInfo(object: object, observances: object.observanceSnapshots, depth: 0))
        output.flush()
        return nil
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`, as the lexer reads a name.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first,
            first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
        else { return false }
        return text.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }
    }

    /// `:objects`: each object bound to a name, with its class and whether it is observed.
    public var objectSummary: [ObjectSummary] {
        compiler.environment.globalNames.keys.sorted().compactMap { name in
            guard case .object(let object)? = globalValue(name) else { return nil }
            let state: ObjectSummary.State =
                object.isReleased
                ? .released
                : object.observationInfo.map { .observed(observances: $0.count) } ?? .notObserved
            return ObjectSummary(name: name, description: object.description, state: state)
        }
    }

    /// `:classes`: each declared class with its superclass and properties.
    public var classSummary: [ClassSummary] {
        compiler.environment.classes.keys.sorted().compactMap { name in
            guard let cls = compiler.environment.classes[name] else { return nil }
            return ClassSummary(
                name: name, superclass: cls.superclass?.info.name ?? "NSObject",
                properties: cls.info.properties.map { ClassSummary.Property(name: $0.name, type: "\($0.type)") })
        }
    }
}
