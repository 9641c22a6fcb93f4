import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// The interactive loop: reads whole entries (continuing as a file would),
/// runs each in one session so state persists, echoes the values of
/// expressions, and handles meta-commands. Everything it says goes through
/// `write`, so that tests can drive it with a fake `LineInput`.
struct REPL<Input: LineInput> {
    let session: Session
    var input: Input
    /// Where the REPL's own messages and echoes go (the session's events go to its output).
    let write: (String) -> Void
    /// Accepted entries as `:save` writes them; one that replaced an earlier
    /// declaration starts with `Session.entryMarker`, so that the saved file
    /// runs as the session did.
    var transcript: [String] = []
    /// A line read to see whether it continued the entry before it, and
    /// which did not: it starts the next entry.
    private var pendingLine: String?
    /// How Swift programs are compiled and run (the command line's options).
    let swiftSettings: SwiftProgram.Settings
    /// The session after `import Foundation`: a Swift program compiled and
    /// run entry by entry (SPEC §11.0); nil while the session is a scenario.
    private(set) var swift: SwiftREPLSession?

    init(
        session: Session, input: Input, swiftSettings: SwiftProgram.Settings = SwiftProgram.Settings(),
        write: @escaping (String) -> Void = Runner.stdout
    ) {
        self.session = session
        self.input = input
        self.write = write
        self.swiftSettings = swiftSettings
        session.limitAdvice = { $0.replAdvice }
        session.earlierEntryNote = REPLWording.earlierEntryNote
    }

    mutating func run() -> Int32 {
        write("\(Version.banner) REPL: type :help for commands, Ctrl-D to quit.\n")
        while let entry = readEntry() {
            if !handle(entry) { break }
        }
        return ExitStatus.success
    }

    /// Runs one entry or meta-command; false means quit.
    mutating func handle(_ entry: String) -> Bool {
        input.remember(entry)
        let trimmed = entry.trimmingSpaces()
        if trimmed.isEmpty { return true }
        if trimmed.hasPrefix(":") { return meta(trimmed) }
        if let hint = Self.bareCommandHint(trimmed), !session.namesInScope.contains(trimmed) {
            write(hint + "\n")
            return true
        }
        if let swift {
            swift.run(entry)
            return true
        }
        if SwiftProgram.isSwift(entry, file: "<repl>") {
            startSwift(entry, file: "<repl>")
            return true
        }
        session.stop.clear()
        let write = self.write
        let result = session.runEntry(entry, file: "<repl>") { write($0 + "\n") }
        record(result)
        return true
    }

    /// `import Foundation` (typed, or first in a loaded file) makes the
    /// session a Swift program, when nothing came before it: the scenario
    /// entries before it are not Swift.
    private mutating func startSwift(_ source: String, file: String) {
        guard transcript.isEmpty else {
            let line = SwiftProgram.importLine(of: source)
            let column =
                (source.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(line - 1).first?
                    .prefix { $0 == " " || $0 == "\t" }.count ?? 0) + 1
            session.output.report(
                Diagnostic(
                    .error,
                    "'import Foundation' must be the first statement: it decides how the classes after it behave; "
                        + "type :reset first to start the session over in Swift",
                    at: SourceLocation(line: line, column: column), length: 6),
                file: file, source: SourceText(source))
            session.output.flush()
            return
        }
        let swift = SwiftREPLSession(settings: swiftSettings, output: session.output, write: write)
        swift.settings.maxDepth = session.options.maxDepth
        swift.settings.explain = session.kvo.explains
        // Only a Swift program that compiled and ran makes the session Swift.
        if swift.run(source, loadedFrom: file == "<repl>" ? nil : file) == .kept { self.swift = swift }
    }

    /// Whether `text` is a whole entry: in a Swift session, by Swift's
    /// grammar (a multi-line string, a closure, an operator at the end of a
    /// line go on), else by the scenario language's.
    private func shape(of text: String) -> EntryShape {
        guard let swift else { return EntryShape.of(text) }
        if swift.isIncomplete(text) { return .open }
        return EntryShape.of(text) == .mayContinue ? .mayContinue : .complete
    }

    /// What to say when someone types `exit`, `quit` or `help` as in other REPLs.
    static func bareCommandHint(_ text: String) -> String? {
        switch text {
        case "exit", "quit", "exit()", "quit()": "type :quit (or press Ctrl-D) to leave"
        case "help", "help()": "type :help for the list of commands"
        default: nil
        }
    }

    /// What Tab completes from: the Swift program's state and declarations
    /// after `import Foundation`, else the scenario session.
    private var completion: any CompletionSource {
        if let snapshot = swift?.snapshot { return SwiftCompletion(snapshot: snapshot) }
        return session
    }

    /// Reads lines until they make a whole entry; Ctrl-C starts over.
    private mutating func readEntry() -> String? {
        input.useCompletion(completion)
        var lines: [String] = []
        while true {
            TerminalState.abandonEntry.store(false, ordering: .relaxed)
            let line: String
            if let pending = pendingLine {
                pendingLine = nil
                line = pending
            } else {
                guard let read = input.readLine(prompt: lines.isEmpty ? "kvo> " : "...> ") else {
                    if lines.isEmpty {
                        write("\n")
                        return nil
                    }
                    return lines.joined(separator: "\n")
                }
                line = read
            }
            if TerminalState.abandonEntry.load(ordering: .relaxed) { lines = [] }
            lines.append(line)
            if lines.count == 1 && line.trimmingSpaces().hasPrefix(":") { return line }
            var shape = self.shape(of: lines.joined(separator: "\n"))
            while shape == .mayContinue {
                // `}` of an if or a do: an `else` or `catch` may follow.
                guard let next = input.readLine(prompt: "...> ") else { return lines.joined(separator: "\n") }
                if TerminalState.abandonEntry.load(ordering: .relaxed) {
                    lines = []
                    break
                }
                guard EntryShape.continuesBlock(next) else {
                    if !next.trimmingSpaces().isEmpty { pendingLine = next }
                    return lines.joined(separator: "\n")
                }
                lines.append(next)
                shape = self.shape(of: lines.joined(separator: "\n"))
            }
            if shape == .complete && !lines.isEmpty { return lines.joined(separator: "\n") }
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
            write("unknown command ':\(word)'\(hint); type :help for the list\n")
            return true
        }
        func needsArgument(_ what: String, example: String) -> Bool {
            if !argument.isEmpty { return true }
            write(":\(command) needs \(what), as in ':\(command) \(example)'\n")
            return false
        }
        if !argument.isEmpty && !["load", "save", "info", "set", "explain", "graph"].contains(command) {
            write(":\(command) takes no argument; type :help for the list\n")
            return true
        }
        switch command {
        case "help":
            write(Self.help)
        case "quit":
            return false
        case "load":
            guard needsArgument("a file", example: "scenario.kvo") else { return true }
            load(argument)
        case "save":
            guard needsArgument("a file", example: "scenario.kvo") else { return true }
            save(argument)
        case "reset":
            let explaining = session.kvo.explains
            session.reset()
            session.kvo.explains = explaining
            transcript = []
            swift = nil
            write("session reset: no classes, objects or observations\n")
        case "objects":
            var objects = session.objectSummary
            if swift != nil {
                guard let snapshot = swiftState(for: command) else { return true }
                objects = snapshot.objectSummary
            }
            let lines = objects.map(\.replLine)
            write(lines.isEmpty ? "no objects bound to names\n" : lines.joined(separator: "\n") + "\n")
        case "classes":
            var classes = session.classSummary
            if swift != nil {
                guard let snapshot = swiftState(for: command) else { return true }
                classes = snapshot.classSummary
            }
            let lines = classes.map(\.replLine)
            write(lines.isEmpty ? "no classes declared\n" : lines.joined(separator: "\n") + "\n")
        case "info":
            guard needsArgument("an object's name", example: "acct") else { return true }
            if let swift {
                // Only a name is ever compiled, so `:info a); f(` runs nothing.
                guard Self.isSwiftName(argument) else {
                    write(":info takes the name of a variable holding an object, as in ':info acct'\n")
                    return true
                }
                if let problem = swift.showObservationInfo(of: argument) { write(problem + "\n") }
                return true
            }
            // A name, looked up: never compiled, so `:info a); f(` runs nothing.
            if let problem = session.showObservationInfo(of: argument) { write(problem.replText + "\n") }
        case "set":
            guard needsArgument("a limit and a number", example: "max-depth 2000") else { return true }
            set(argument)
        case "explain":
            // One switch for both kinds of session: it stays as it is across :reset.
            REPLPictures.explain(argument, session: session)
            swift?.settings.explain = session.kvo.explains
        case "graph":
            if swift != nil {
                guard let dot = swiftState(for: command)?.graph else { return true }
                REPLPictures.graph(argument, dot: dot)
            } else {
                REPLPictures.graph(argument, dot: session.graph)
            }
        default:
            break
        }
        return true
    }

    /// What the Swift session held after its last accepted entry, for
    /// `:objects`, `:classes` and `:graph`; nil, said, when that run's state
    /// could not be read back.
    private func swiftState(for command: String) -> SwiftREPLSnapshot? {
        guard let snapshot = swift?.snapshot, snapshot.state != nil else {
            write(":\(command) cannot show the session: the run of its last entry left no state to read back\n")
            return nil
        }
        return snapshot
    }

    /// A Swift identifier as `:info` takes it: letters, digits and `_`, not a digit first.
    static func isSwiftName(_ text: String) -> Bool {
        guard let first = text.first, !first.isASCIIDigit else { return false }
        return text.allSatisfy { $0.isIdentifierCharacter }
    }

    static var help: String {
        """
        Type statements as in a scenario; an entry goes on while a bracket is open or a line
        ends with an operator or ',', and a '}' of an if or do waits for an 'else' or 'catch'.
        The value of an expression is echoed.
          :help              this list
          :quit              leave (Ctrl-D on an empty line too)
          :load FILE         run a scenario file in this session
          :save FILE         write this session's accepted input as a scenario
          :reset             forget every class, object and observation
          :objects           the objects bound to names, their classes and whether they are observed
          :info NAME         the observation info of an object
          :classes           the declared classes and their properties
          :set max-depth N   how deep notifications and calls may nest (now the --max-depth default)
          :set max-steps N   how many statements one entry may execute
          :explain on|off    explain each step of the KVO machinery as '#' lines
          :graph [FILE]      the observation graph into FILE (.dot, or .svg with Graphviz), else a temporary file
        Tab completes keywords, names, members after 'name.', options after '.',
        keys in forKeyPath: "…" and after \\. and file names after :load and :save.
        Ctrl-C clears the input or interrupts a running statement.
        After 'import Foundation' the session is a Swift program: each entry is compiled after
        the ones before it and the whole runs again, showing only what the new entry prints.
        An entry that does not compile, or whose run stops (an uncaught exception, a trap,
        Ctrl-C), is not kept. :objects, :classes and :graph show the program as its last kept
        entry left it, :explain explains the next entries, and Tab completes what they declared.

        """
    }

    private mutating func load(_ path: String) {
        let source: String
        do {
            // Regular files only: opening a FIFO waits for a writer, and the
            // read would block where Ctrl-C cannot reach it.
            source = try Files.read(path, regularOnly: true)
        } catch {
            write("\(error)\n")
            return
        }
        if let swift {
            swift.run(source, loadedFrom: path)
            return
        }
        if SwiftProgram.isSwift(source, file: path) {
            startSwift(source, file: path)
            return
        }
        session.stop.clear()
        let write = self.write
        let result = session.runEntry(source, file: path) { write($0 + "\n") }
        record(result)
    }

    private mutating func record(_ result: EntryResult) {
        guard let parts = result.replay else { return }
        let replay = REPLWording.saved(parts)
        transcript.append(result.redeclares && !transcript.isEmpty ? Session.entryMarker + "\n" + replay : replay)
    }

    private func save(_ path: String) {
        let text = swift?.program ?? transcript.joined(separator: "\n")
        let count = swift?.entries.count ?? transcript.count
        do {
            try Files.write(text + "\n", to: path)
            write("saved \(count) entr\(count == 1 ? "y" : "ies") to \(path)\n")
        } catch {
            write("\(error)\n")
        }
    }

    /// `:set max-depth N` / `:set max-steps N`.
    private mutating func set(_ argument: String) {
        let words = argument.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let usage = ":set takes max-depth or max-steps and a positive number, as in ':set max-depth 2000'"
        guard words.count == 2, let value = Int(words[1]), value > 0 else {
            write(usage + "\n")
            return
        }
        switch words[0] {
        case "max-depth":
            session.setLimits(maxDepth: value)
            swift?.settings.maxDepth = value
            write("max-depth is now \(value)\n")
        case "max-steps" where swift != nil:
            write("max-steps counts the statements of scenarios; a Swift entry that runs away stops with Ctrl-C\n")
        case "max-steps":
            session.setLimits(maxSteps: value)
            write("max-steps is now \(value) for each entry\n")
        default:
            write(usage + "\n")
        }
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
