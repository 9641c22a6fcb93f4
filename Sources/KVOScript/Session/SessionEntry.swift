import KVOCore

/// What running one REPL entry did, for the REPL to record.
public struct EntryResult {
    public var ending: Session.Ending
    /// The entry as `:save` writes it, so that the saved file does what the
    /// session did (one part a line or more, the REPL words the comments);
    /// nil when the entry had errors and so did nothing.
    public var replay: [ReplayPart]?
    /// Whether the entry replaced a class, function or context an earlier
    /// entry declared: `:save` writes `Session.entryMarker` before it.
    public var redeclares = false
}

/// The REPL's entries: all or nothing. An entry with errors changes nothing
/// (checking works on a copy of the names); one stopped by a runtime error or
/// an uncaught exception keeps what its statements did before that point, and
/// a `let` or `var` that did not complete binds nothing.
extension Session {
    public func runEntry(_ source: String, file: String, echo: @escaping (String) -> Void) -> EntryResult {
        guard let entries = Self.entries(of: source) else {
            return runOneEntry(source, file: file, echo: echo, shownText: nil)
        }
        // A `:save`d session loaded again: its entries, one after another,
        // until one does not complete; the replay keeps their markers.
        let whole = SourceText(source)
        var replays: [[ReplayPart]] = []
        var result = EntryResult(ending: .completed, replay: nil)
        for entry in entries {
            let part = runOneEntry(entry, file: file, echo: echo, shownText: whole)
            result.ending = part.ending
            if var replay = part.replay {
                if case .asTyped(let first)? = replay.first {
                    replay[0] = .asTyped(String(first.drop { $0 == "\n" }))
                }
                replays.append(replays.isEmpty ? replay : [.entryMarker] + replay)
            }
            result.redeclares = result.redeclares || (replays.count <= 1 && part.redeclares)
            if part.ending != .completed { break }
        }
        result.replay = replays.isEmpty ? nil : replays.flatMap { $0 }
        return result
    }

    private func runOneEntry(
        _ source: String, file: String, echo: @escaping (String) -> Void, shownText: SourceText?
    ) -> EntryResult {
        let before = compiler.environment.globalNames
        machine.restartStepLimit()
        let execution = execute(source, file: file, echo: echo, shownText: shownText)
        guard let program = execution.program else { return EntryResult(ending: lastEnding, replay: nil) }
        takeBackFailedBindings(program, execution.outcomes, before: before)
        var result = EntryResult(ending: lastEnding, replay: Self.replay(source, program, execution.outcomes))
        result.redeclares = program.statements.contains { statement in
            let name: String
            switch statement {
            case .classDecl(let declaration): name = declaration.name
            case .function(let declaration): name = declaration.name
            case .context(let contextName, _): name = contextName
            default: return false
            }
            switch before[name] {
            case .classRef?, .function?, .context?: return true
            default: return false
            }
        }
        return result
    }

    /// Every name whose declaring statement did not complete means again what
    /// it meant before (or what an earlier, completed declaration in the
    /// entry made it).
    private func takeBackFailedBindings(
        _ program: Program, _ outcomes: [StatementOutcome],
        before: [String: Binding]
    ) {
        var completed: [String: Binding] = [:]
        var failed: Set<String> = []
        for (statement, outcome) in zip(program.compiled, outcomes) {
            guard let (name, binding) = statement.declares else { continue }
            if outcome == .completed {
                completed[name] = binding
                failed.remove(name)
            } else {
                failed.insert(name)
            }
        }
        for name in failed { compiler.restoreGlobal(name, to: completed[name] ?? before[name]) }
    }

    /// The entry cut into its top-level statements, each kept as the session
    /// ran it: declarations and completed statements as typed; one that
    /// raised an uncaught exception inside `do { } catch { }` so that the file
    /// runs on past it with the same effects (for a declaration, which bound
    /// nothing, only its initializer); one stopped by a runtime error,
    /// and those after it that never ran, as comments.
    static func replay(_ source: String, _ program: Program, _ outcomes: [StatementOutcome]) -> [ReplayPart] {
        var outcomeAt: [SourceLocation: StatementOutcome] = [:]
        for (statement, outcome) in zip(program.compiled, outcomes) { outcomeAt[statement.location] = outcome }
        let pieces = cut(source, at: program.starts)
        var parts: [ReplayPart] = []
        for (index, statement) in program.statements.enumerated() where index < pieces.count {
            let piece = pieces[index]
            let declares: Bool
            let location: SourceLocation
            switch statement {
            case .classDecl, .function, .context, .importModule:
                // `import Foundation` decides how every class after it
                // behaves: commented out, the file would replay differently.
                parts.append(.asTyped(piece))
                continue
            case .binding(_, _, _, _, let at):
                declares = true
                location = at
            default:
                declares = false
                location = statement.location
            }
            switch outcomeAt[location] ?? .notRun {
            case .completed:
                parts.append(.asTyped(piece))
            case .raised where !declares:
                parts.append(.caught(piece))
            case .raised:
                // Its initializer ran until the exception: run it alone, binding nothing.
                parts.append(.commentedOut(piece, because: .raisedAndBoundNothing))
                if let equals = piece.firstIndex(of: "=") {
                    parts.append(.caught(String(piece[piece.index(after: equals)...].drop { $0 == " " })))
                }
            case .failed:
                parts.append(.commentedOut(piece, because: .stoppedByRuntimeError))
            case .notRun:
                parts.append(.commentedOut(piece, because: .notRun))
            }
        }
        return parts
    }

    /// `source` cut where each top-level statement starts (line and column in
    /// characters, as the lexer counts them): the first piece takes what comes
    /// before the first statement. Pieces lose trailing blanks and a final `;`.
    static func cut(_ source: String, at starts: [SourceLocation]) -> [String] {
        var offsets: [String.Index] = []
        var line = 1
        var column = 1
        var next = 0
        var index = source.startIndex
        while next < starts.count {
            if (line, column) >= (starts[next].line, starts[next].column) {
                offsets.append(index)
                next += 1
                continue
            }
            guard index < source.endIndex else { break }
            let character = source[index]
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index = source.index(after: index)
        }
        guard !offsets.isEmpty else { return [] }
        offsets[0] = source.startIndex
        var pieces: [String] = []
        for (position, start) in offsets.enumerated() {
            let end = position + 1 < offsets.count ? offsets[position + 1] : source.endIndex
            var piece = Substring(source[start..<end])
            while let last = piece.last, last == " " || last == "\t" || last == "\n" || last == "\r\n" || last == "\r" {
                piece.removeLast()
            }
            if piece.last == ";" { piece.removeLast() }
            pieces.append(String(piece))
        }
        return pieces
    }
}

extension Session {
    /// The notifications that repeat in `trail` (innermost first), outermost
    /// first and joined by arrows (`a.n → a.m`); nil when nothing repeats.
    static func notificationLoop(_ trail: [String]) -> String? {
        guard trail.count >= 2 else { return nil }
        for period in 1...(trail.count / 2) {
            let repeats = (period..<trail.count).allSatisfy { trail[$0] == trail[$0 - period] }
            if repeats { return trail[0..<period].reversed().joined(separator: " → ") }
        }
        return nil
    }
}
