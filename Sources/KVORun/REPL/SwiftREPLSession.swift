import KVOCore
import KVOOutput
import KVOScript
import RewriterProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The REPL after `import Foundation` (SPEC §10.1, §11.0): a Swift program
/// that grows by one entry at a time. Each entry is compiled after the
/// entries accepted before it and the whole program runs; the earlier
/// entries' output, shown when they ran, is kept out (see KVOFoundation's
/// KVOREPLEntries.swift), so what appears is what the new entry does.
///
/// An entry is kept only when its program compiled and ran to its end: one
/// with a compile error changes nothing, and so does one whose run stopped
/// (an uncaught exception, a runtime error, a trap, Ctrl-C, `exit`), so
/// that replaying the entries never stops before the next one. A type or
/// function declared again replaces the earlier declaration in the whole
/// program (the earlier entries run again with the new one).
final class SwiftREPLSession {
    /// How running an entry went.
    enum Outcome: Equatable {
        /// Compiled and ran to its end: now part of the program.
        case kept
        /// Did not compile (or could not be compiled): nothing changed.
        case rejected
        /// Compiled, but its run stopped before its end: nothing changed.
        case notKept
    }

    /// The accepted entries, as typed (or loaded).
    private(set) var entries: [String] = []
    /// What the program held after the last accepted entry, and what the
    /// entries declare (`:objects`, `:classes`, `:graph`, Tab).
    private(set) var snapshot: SwiftREPLSnapshot?
    var settings: SwiftProgram.Settings
    /// Where diagnostics go: the session's output, as the interpreter's do.
    private let output: ScriptOutput
    /// The REPL's own messages.
    private let write: (String) -> Void

    init(settings: SwiftProgram.Settings, output: ScriptOutput, write: @escaping (String) -> Void) {
        self.settings = settings
        self.output = output
        self.write = write
    }

    /// What `:save` writes: the accepted entries, a Swift program.
    var program: String { entries.joined(separator: "\n") }

    /// The earlier entries as the program names them: `<repl entry N>`, so
    /// that an error in code an earlier entry declared says where it is. The
    /// new entry is `<repl>` (or the file it was loaded from), as in the
    /// interpreter's REPL.
    static func named(_ texts: [String]) -> [REPLEntry] {
        texts.enumerated().map { REPLEntry(text: $0.element, name: "<repl entry \($0.offset + 1)>") }
    }

    /// Compiles and runs the program with `text` as its last entry, showing
    /// what the entry prints; keeps it when it ran to its end.
    @discardableResult
    func run(_ text: String, loadedFrom: String? = nil) -> Outcome {
        defer { output.flush() }
        let replacing: (entries: [REPLEntry], replaced: [String])
        let deadline: Deadline
        do {
            let rewriter = try tools().rewriter
            // `--timeout` bounds each entry as it bounds a file's run: the
            // rewriter's questions, compiling and running together, counted
            // once the runtime is ready (its one-time build has its own bound).
            deadline = Deadline(seconds: settings.timeout)
            replacing = try rewriter.replacingDeclarations(in: Self.named(entries), by: text, deadline: deadline)
        } catch {
            reportFailure(error, in: loadedFrom ?? "<repl>")
            return .rejected
        }
        let earlier = replacing.entries.map(\.text)
        let named = Self.named(earlier) + [REPLEntry(text: text, name: loadedFrom ?? "<repl>")]
        let ran = compileAndRun(named, replaced: replacing.replaced, deadline: deadline, keepingState: true)
        if ran.outcome == .kept {
            entries = earlier + [text]
            snapshot = ran.snapshot
        }
        return ran.outcome
    }

    /// The compiler, the runtime and the rewriter, found (and built) by
    /// the first entry and kept for the session.
    private var found: (swiftc: String, runtime: String, cache: String, rewriter: Rewriter)?

    private func tools() throws -> (swiftc: String, runtime: String, cache: String, rewriter: Rewriter) {
        if let found { return found }
        let swiftc = try Toolchain.find(settings.swiftc)
        let cache = try RuntimeCache.checkedCacheRoot()
        let runtime = try RuntimeCache.runtimeDirectory(
            swiftc: swiftc, cache: cache, deadline: Deadline(seconds: settings.timeout)
        ) { self.write($0) }
        let tools = (swiftc, runtime, cache, Rewriter(executable: runtime + "/" + RuntimeCache.rewriterName))
        found = tools
        return tools
    }

    /// Whether `text` goes on past its last line, by Swift's grammar; when
    /// the rewriter cannot say, the entry is taken as it is (and running it
    /// reports why).
    func isIncomplete(_ text: String) -> Bool {
        guard let rewriter = try? tools().rewriter else { return false }
        return (try? rewriter.isIncomplete(text, deadline: Deadline(seconds: settings.timeout))) ?? false
    }

    private func reportFailure(_ error: Error, in file: String) {
        let message = (error as? SwiftProgram.Failure)?.message ?? "\(error)"
        guard !message.isEmpty else { return }
        output.report(Diagnostic(.error, message, at: .init(line: 1, column: 1)), file: file, source: SourceText(""))
    }

    /// Forgets every entry (`:reset`).
    func reset() {
        entries = []
        snapshot = nil
    }

    /// `:info NAME`: the observation info of the object a top-level
    /// variable holds, printed by the program itself after the entries (and
    /// not kept). Returns what is wrong when NAME is no such variable.
    func showObservationInfo(of name: String) -> String? {
        defer { output.flush() }
        var named = Self.named(entries)
        named.append(REPLEntry(text: "print(\(name).observationInfo)", name: "<repl>"))
        var firstError: String?
        // Found (or built) first, so that the limit counts from after it.
        _ = try? tools()
        let ran = compileAndRun(named, replaced: [], deadline: Deadline(seconds: settings.timeout)) {
            diagnostic, file in
            if firstError == nil, diagnostic.severity == .error, file == "<repl>" { firstError = diagnostic.message }
            return firstError != nil
        }
        if ran.outcome == .rejected, let firstError {
            return ":info takes a top-level variable that holds an NSObject, and '\(name)' is not one (\(firstError))"
        }
        return nil
    }

    // MARK: Compiling and running

    /// How a run went, and with `keepingState`, what the program held as
    /// its last entry ended (when it was kept).
    private struct Ran {
        let outcome: Outcome
        var snapshot: SwiftREPLSnapshot?
    }

    /// `hide` may take a compile diagnostic (and its file) out of the
    /// report: true when it did. `keepingState`: the run writes what the
    /// program holds as its last entry ends, for the snapshot.
    private func compileAndRun(
        _ entries: [REPLEntry], replaced: [String], deadline: Deadline, keepingState: Bool = false,
        hide: ((Diagnostic, String) -> Bool)? = nil
    ) -> Ran {
        guard let new = entries.last else { return Ran(outcome: .rejected) }
        let texts = Dictionary(entries.map { ($0.name, SourceText($0.text)) }, uniquingKeysWith: { _, last in last })
        func report(_ diagnostic: Diagnostic, _ file: String) {
            output.report(diagnostic, file: file, source: texts[file] ?? SourceText(""))
        }
        let program: REPLProgram
        do {
            program = try tools().rewriter.replProgram(entries, deadline: deadline)
        } catch {
            reportFailure(error, in: new.name)
            return Ran(outcome: .rejected)
        }
        if let problem = program.problem {
            report(
                Diagnostic(
                    .error, problem.message, at: SourceLocation(line: problem.line, column: problem.column),
                    length: problem.length), new.name)
            return Ran(outcome: .rejected)
        }
        for warning in program.warnings {
            report(
                Diagnostic(
                    .warning, warning.message, at: SourceLocation(line: warning.line, column: warning.column),
                    length: warning.length), new.name)
        }
        let binary: CompiledProgram
        var errorsInEarlierEntries = false
        do {
            let (swiftc, runtime, cache, _) = try tools()
            let programs = ProgramCache(root: cache, swiftc: swiftc, runtime: runtime)
            binary = try programs.compiled(program.source, files: entries.map(\.name), deadline: deadline) {
                found, file in
                // swiftc's byte columns as the entry's Characters, as a file's.
                let entry = entries.last { $0.name == file }
                let diagnostic = entry.map { SwiftProgram.inCharacters(found, source: SourceText($0.text)) } ?? found
                if hide?(diagnostic, file) == true { return }
                if file != new.name && diagnostic.severity == .error { errorsInEarlierEntries = true }
                report(diagnostic, file)
            }
        } catch let failure as SwiftProgram.Failure {
            if !failure.message.isEmpty {
                report(Diagnostic(.error, failure.message, at: .init(line: 1, column: 1)), new.name)
            }
            if errorsInEarlierEntries, !replaced.isEmpty {
                explainReplacement(replaced, new.name, SourceText(new.text))
            }
            return Ran(outcome: .rejected)
        } catch {
            report(Diagnostic(.error, "\(error)", at: .init(line: 1, column: 1)), new.name)
            return Ran(outcome: .rejected)
        }
        return execute(binary, program, entries, deadline: deadline, keepingState: keepingState, report: report)
    }

    /// After a compile error: the earlier entries run again with the
    /// declarations the new one replaced, and must compile with them.
    private func explainReplacement(_ replaced: [String], _ file: String, _ source: SourceText) {
        let names = replaced.map { "'\($0)'" }.joined(separator: ", ")
        output.report(
            Diagnostic(
                .note,
                "this entry replaces the earlier declaration of \(names): every earlier entry runs again with the new one, and must compile with it",
                at: .init(line: 1, column: 1)), file: file, source: source)
    }

    /// The most of a state read back: its graph is capped
    /// (`ObservationGraph`), so only a runaway write comes near it.
    private static let stateLimit = 64 << 20

    private func execute(
        _ binary: CompiledProgram, _ program: REPLProgram, _ entries: [REPLEntry], deadline: Deadline,
        keepingState: Bool,
        report: (Diagnostic, String) -> Void
    ) -> Ran {
        let new = entries.last?.name ?? "<repl>"
        let trapFile = SwiftProgram.temporaryPath("kvo-run-trap")
        let marks = SwiftProgram.temporaryPath("kvo-run-repl-marks")
        let sourcePath = SwiftProgram.temporaryPath("kvo-run-repl-source")
        let replayPath = SwiftProgram.temporaryPath("kvo-run-repl-replay")
        let statePath = keepingState ? SwiftProgram.temporaryPath("kvo-run-repl-state") : nil
        defer {
            for path in [trapFile, marks, sourcePath, replayPath] + (statePath.map { [$0] } ?? []) { unlink(path) }
        }
        // The runtime reads the program's lines back for its own diagnostics.
        try? Files.write(program.joined, to: sourcePath)
        var channel = SwiftProgram.programSettings(
            settings, display: new, sourcePath: sourcePath, trapFile: trapFile, colour: false)
        channel.repl = ProgramChannel.REPL(
            marksFile: marks,
            entries: zip(program.firstLines, entries).map { .init(firstLine: $0.0, name: $0.1.name) },
            stateFile: statePath)
        let environment = channel.environment
        let replay = open(replayPath, O_WRONLY | O_TRUNC | O_CLOEXEC)
        defer { if replay >= 0 { close(replay) } }
        guard replay >= 0 else {
            report(Diagnostic(.error, "cannot create a temporary file in /tmp", at: .init(line: 1, column: 1)), new)
            return Ran(outcome: .rejected)
        }
        output.flush()
        Runner.flushStandardStreams()
        // Standard input is not the program's: the REPL reads the terminal,
        // and an earlier entry's `readLine()` must not wait on it again.
        let ending = ChildProcess.run(
            binary.executable, [], argumentZero: binary.path, environment: binary.environment(environment),
            output: replay, deadline: deadline, passing: [1, 2], standardInput: "/dev/null")
        let reached = ProgramChannel.REPL.marks((try? Files.read(marks)) ?? "")
        func stopped(_ message: String) {
            let at = SwiftProgram.trapLocation(trapFile).map { program.locate($0, names: entries.map(\.name)) }
            report(
                Diagnostic(.error, message, at: at?.location ?? .init(line: 1, column: 1)), at?.file ?? new)
        }
        if case .notStarted(let why) = ending {
            report(Diagnostic(.error, "cannot start the compiled program: \(why)", at: .init(line: 1, column: 1)), new)
            return Ran(outcome: .rejected)
        }
        guard reached.contains(ProgramChannel.REPL.begins) else {
            // Earlier entries that do not do again what they did (the clock,
            // random numbers, files): what they printed this time says why.
            let printed = ((try? Files.read(replayPath, limit: 1 << 20)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false).suffix(12).joined(separator: "\n")
            report(
                Diagnostic(
                    .error,
                    "the earlier entries, run again, stopped before this entry: they did not do what they did the first time; nothing changed (':save FILE' keeps them, ':reset' starts over)"
                        + (printed.isEmpty ? "" : "; what they printed this time ends with:\n" + printed),
                    at: .init(line: 1, column: 1)), new)
            return Ran(outcome: .notKept)
        }
        let notKept = "entry not kept: its run stopped before its end; the session goes on as it was before it\n"
        switch ending {
        case .exited(0) where reached.contains(ProgramChannel.REPL.ends):
            // The state is written before the mark that keeps the entry.
            let state = statePath.flatMap { try? Files.read($0, limit: Self.stateLimit) }.flatMap {
                ProgramChannel.REPLState(decoding: $0)
            }
            return Ran(
                outcome: .kept,
                snapshot: keepingState ? SwiftREPLSnapshot(state: state, declarations: program.declarations) : nil)
        case .exited(0):
            write(
                "entry not kept: it ended the program (exit) before its end; the session goes on as it was before it\n")
        case .exited:
            // The uncaught exception or the runtime error is reported above, by the program.
            write(notKept)
        case .signaled(let signal):
            stopped("the program stopped: \(ChildProcess.describe(signal: signal))")
            write(notKept)
        case .timedOut:
            stopped(
                "the program ran longer than \(SwiftProgram.formatSeconds(settings.timeout ?? 0)) s and was stopped (--timeout)"
            )
            write(notKept)
        case .notStarted:
            break
        }
        return Ran(outcome: .notKept)
    }
}

extension REPLProgram {
    /// The entry (its name) and the line within it of a line of the program.
    func locate(_ location: SourceLocation, names: [String]) -> (file: String, location: SourceLocation) {
        guard let index = firstLines.lastIndex(where: { $0 <= location.line }), index < names.count else {
            return (names.last ?? "<repl>", location)
        }
        return (names[index], SourceLocation(line: location.line - firstLines[index] + 1, column: location.column))
    }
}
