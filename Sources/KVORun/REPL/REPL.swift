@preconcurrency import CReadline
import KVOCore
import KVOScript
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A source of input lines: readline on a terminal, a fake in tests.
protocol LineInput {
    /// The next line, or nil at end of input (Ctrl-D).
    mutating func readLine(prompt: String) -> String?
    mutating func remember(_ entry: String)
}

/// The REPL's terminal state, which readline's C callbacks and the SIGINT
/// handler reach through globals (they cannot capture Swift context). Only
/// the thread that reads input and runs entries touches it: SIGINT is blocked
/// on every other thread (`LargeStack.run`). The two flags the signal handler
/// shares are atomics all the same.
enum TerminalState {
    nonisolated(unsafe) static var session: Session?
    nonisolated(unsafe) static var candidates: [String] = []
    nonisolated(unsafe) static var nextCandidate = 0
    /// readline is waiting for a line: Ctrl-C clears it rather than interrupting.
    static let reading = Atomic<Bool>(false)
    /// Ctrl-C was pressed while typing: drop the entry being typed.
    static let abandonEntry = Atomic<Bool>(false)
}

/// GNU readline with history in `~/.kvo_history` (`KVO_HISTORY` overrides it;
/// empty disables it), capped at 1000 entries, and Tab completion.
struct ReadlineInput: LineInput {
    let historyPath: String?

    init(session: Session) {
        if let override = getenv("KVO_HISTORY") {
            let path = String(cString: override)
            historyPath = path.isEmpty ? nil : path
        } else if let home = getenv("HOME") {
            historyPath = String(cString: home) + "/.kvo_history"
        } else {
            historyPath = nil
        }
        stifle_history(1000)
        if let historyPath { _ = read_history(historyPath) }
        TerminalState.session = session
        Self.installCompletion()
        Self.installInterruptHandler()
    }

    mutating func readLine(prompt: String) -> String? {
        TerminalState.reading.store(true, ordering: .relaxed)
        defer { TerminalState.reading.store(false, ordering: .relaxed) }
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    mutating func remember(_ entry: String) {
        guard !entry.trimmingSpaces().isEmpty else { return }
        add_history(entry)
        if let historyPath {
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, 1000)
        }
    }

    private static func installCompletion() {
        rl_readline_name = UnsafePointer(strdup("kvo-run"))
        rl_completer_word_break_characters = UnsafePointer(strdup(" \t\n\"(,[{}=;+-*/<>!&|"))
        rl_completer_quote_characters = nil
        rl_basic_quote_characters = nil  // else readline re-appends the `"` that broke the word
        rl_attempted_completion_function = { text, start, _ in
            rl_attempted_completion_over = 1  // never fall back to file names
            guard let text, let session = TerminalState.session else { return nil }
            let word = String(cString: text)
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let before = String(decoding: line.utf8.prefix(Int(max(0, start))), as: UTF8.self)
            let result = Completion.complete(before: before, word: word, session: session)
            TerminalState.candidates = result.candidates
            rl_completion_append_character = Int32(result.append.utf8.first ?? 0)
            rl_completion_suppress_quote = 1
            rl_completion_suppress_append = result.append.isEmpty ? 1 : 0
            return rl_completion_matches(text) { _, state in
                if state == 0 { TerminalState.nextCandidate = 0 }
                guard TerminalState.nextCandidate < TerminalState.candidates.count else { return nil }
                defer { TerminalState.nextCandidate += 1 }
                return strdup(TerminalState.candidates[TerminalState.nextCandidate])
            }
        }
    }

    /// Ctrl-C while typing clears the line (and a pending multi-line entry);
    /// while a statement runs, it interrupts it and returns to the prompt.
    private static func installInterruptHandler() {
        // This thread reads input and runs entries (LargeStack.run blocks
        // SIGINT on every other thread); a parent may also have started us
        // with SIGINT blocked (masks survive exec).
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        // Touched once here: the handler must not be the first to initialise it.
        StopFlag.process.clear()
        rl_catch_signals = 0
        signal(SIGINT) { _ in
            if TerminalState.reading.load(ordering: .relaxed) {
                TerminalState.abandonEntry.store(true, ordering: .relaxed)
                _ = write(1, "^C\n", 3)
                rl_on_new_line()
                rl_replace_line("", 0)
                rl_set_prompt("kvo> ")
                rl_redisplay()
            } else {
                StopFlag.process.request(.interrupt)
            }
        }
    }
}

/// The interactive loop: reads complete entries (continuing while a bracket or
/// string is open), runs them in one session so state persists, and handles
/// meta-commands.
struct REPL<Input: LineInput> {
    let session: Session
    /// Where the session's events and diagnostics go.
    let renderer: EventRenderer
    var input: Input
    /// Accepted entries, for `:save`.
    var transcript: [String] = []

    init(session: Session, renderer: EventRenderer, input: Input) {
        self.session = session
        self.renderer = renderer
        self.input = input
    }

    mutating func run() -> Int32 {
        Runner.stdout("\(Version.banner) REPL: type :help for commands, Ctrl-D to quit.\n")
        while let entry = readEntry() {
            input.remember(entry)
            let trimmed = entry.trimmingSpaces()
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix(":") {
                if !meta(trimmed) { break }
                continue
            }
            StopFlag.process.clear()
            _ = session.run(entry, file: "<repl>")
            if let saved = Self.replayable(entry, session.lastEnding) { transcript.append(saved) }
        }
        return ExitStatus.success
    }

    /// Reads lines until brackets and strings balance; Ctrl-C starts over.
    private mutating func readEntry() -> String? {
        var lines: [String] = []
        while true {
            TerminalState.abandonEntry.store(false, ordering: .relaxed)
            guard let line = input.readLine(prompt: lines.isEmpty ? "kvo> " : "...> ") else {
                if lines.isEmpty {
                    Runner.stdout("\n")
                    return nil
                }
                return lines.joined(separator: "\n")
            }
            if TerminalState.abandonEntry.load(ordering: .relaxed) { lines = [] }
            lines.append(line)
            if lines.count == 1 && line.trimmingSpaces().hasPrefix(":") { return line }
            if Balance.isComplete(lines.joined(separator: "\n")) { return lines.joined(separator: "\n") }
        }
    }

    /// How an entry goes into `:save`'s scenario so that running the file
    /// gives the session's notifications: entries with errors are left out; one
    /// that ended in an uncaught exception is kept inside `do { } catch { }` so
    /// the file runs on (its effects before the exception still happen), unless
    /// it declares names, which a block would hide; one stopped by a runtime
    /// error or Ctrl-C is kept as a comment.
    static func replayable(_ entry: String, _ ending: Session.Ending) -> String? {
        switch ending {
        case .completed:
            return entry
        case .scriptErrors:
            return nil
        case .uncaughtException:
            let first = entry.trimmingSpaces()
            let declares = ["let ", "var ", "class ", "func ", "context "].contains { first.hasPrefix($0) }
            if !declares { return "do {\n" + entry + "\n} catch {\n}" }
            fallthrough
        case .runtimeError:
            let note = ending == .runtimeError ? "stopped by a runtime error" : "raised an uncaught exception"
            return "// (\(note) in the session)\n" + entry.split(separator: "\n", omittingEmptySubsequences: false).map { "// " + $0 }.joined(separator: "\n")
        }
    }

    static var commands: [String] { Completion.metaCommands.map { String($0.dropFirst()) } }

    /// Runs a meta-command; false means quit.
    private mutating func meta(_ text: String) -> Bool {
        let parts = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let word = parts.first ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingSpaces() : ""
        let matches = Self.commands.filter { $0.hasPrefix(word) }
        let command = matches.contains(word) ? word : (matches.count == 1 ? matches[0] : nil)
        guard !word.isEmpty, let command else {
            let hint = matches.count > 1 ? " (ambiguous: \(matches.map { ":" + $0 }.joined(separator: ", ")))" : ""
            Runner.stdout("unknown command ':\(word)'\(hint); type :help for the list\n")
            return true
        }
        func needsArgument(_ what: String) -> Bool {
            if !argument.isEmpty { return true }
            Runner.stdout(":\(command) needs \(what), as in ':\(command) \(what == "a file" ? "scenario.kvo" : "acct")'\n")
            return false
        }
        if !argument.isEmpty && !["load", "save", "info", "explain", "graph"].contains(command) {
            Runner.stdout(":\(command) takes no argument; type :help for the list\n")
            return true
        }
        switch command {
        case "help":
            Runner.stdout("""
                Type statements as in a scenario; a class or a do/catch may span lines.
                  :help          this list
                  :quit          leave (Ctrl-D on an empty line too)
                  :load FILE     run a scenario file in this session
                  :save FILE     write this session's accepted input as a scenario
                  :reset         forget every class, object and observation
                  :objects       the objects bound to names, their classes and whether they are observed
                  :info NAME     the observation info of an object
                  :classes       the declared classes and their properties
                  :explain on|off  explain each step of the KVO machinery as '#' lines
                  :graph [FILE]  the observation graph as DOT, or into FILE (.dot, or .svg with Graphviz)
                Tab completes keywords, names, members after 'name.' and keys in forKeyPath: "…".
                Ctrl-C clears the input or interrupts a running statement.

                """)
        case "quit":
            return false
        case "load":
            guard needsArgument("a file") else { return true }
            do {
                let source = try Files.read(argument)
                _ = session.run(source, file: argument)
                if let saved = Self.replayable(source, session.lastEnding) { transcript.append(saved) }
            } catch {
                Runner.stdout("\(error)\n")
            }
        case "save":
            guard needsArgument("a file") else { return true }
            do {
                try Files.write(transcript.joined(separator: "\n") + "\n", to: argument)
                Runner.stdout("saved \(transcript.count) entr\(transcript.count == 1 ? "y" : "ies") to \(argument)\n")
            } catch {
                Runner.stdout("\(error)\n")
            }
        case "reset":
            let explaining = session.kvo.explains
            session.reset()
            session.kvo.explains = explaining
            transcript = []
            Runner.stdout("session reset: no classes, objects or observations\n")
        case "objects":
            let lines = session.objectSummary
            Runner.stdout(lines.isEmpty ? "no objects bound to names\n" : lines.joined(separator: "\n") + "\n")
        case "classes":
            let lines = session.classSummary
            Runner.stdout(lines.isEmpty ? "no classes declared\n" : lines.joined(separator: "\n") + "\n")
        case "info":
            guard needsArgument("an object's name") else { return true }
            // A name, looked up: never compiled, so `:info a); f(` runs nothing.
            if let problem = session.showObservationInfo(of: argument) { Runner.stdout(problem + "\n") }
        case "explain":
            REPLPictures.explain(argument, session: session)
        case "graph":
            REPLPictures.graph(argument, session: session)
        default:
            break
        }
        return true
    }
}

/// Whether an entry is complete: no `(`, `[`, `{`, string or block comment open.
enum Balance {
    static func isComplete(_ text: String) -> Bool {
        var depth = 0
        var inString = false
        var commentDepth = 0
        var previous: Character = " "
        var iterator = text.makeIterator()
        var lineComment = false
        while let c = iterator.next() {
            defer { previous = c }
            if lineComment {
                if c == "\n" { lineComment = false }
                continue
            }
            if commentDepth > 0 {
                if previous == "*" && c == "/" { commentDepth -= 1 }
                if previous == "/" && c == "*" { commentDepth += 1 }
                continue
            }
            if inString {
                if c == "\\" {
                    _ = iterator.next()
                    continue
                }
                if c == "\"" { inString = false }
                if c == "\n" { return true }  // unterminated: let the parser report it
                continue
            }
            switch c {
            case "\"": inString = true
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "/" where previous == "/": lineComment = true
            case "*" where previous == "/": commentDepth += 1
            default: break
            }
        }
        return depth <= 0 && !inString && commentDepth == 0
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
