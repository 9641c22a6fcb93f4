@preconcurrency import CReadline
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// A source of input lines: readline on a terminal, a fake in tests.
protocol LineInput {
    /// The next line, or nil at end of input (Ctrl-D).
    mutating func readLine(prompt: String) -> String?
    mutating func remember(_ entry: String)
}

/// GNU readline with history in `~/.kvo_history` (`KVO_HISTORY` overrides it;
/// empty disables it), capped at 1000 entries.
struct ReadlineInput: LineInput {
    let historyPath: String?

    init() {
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
    }

    mutating func readLine(prompt: String) -> String? {
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    mutating func remember(_ entry: String) {
        let line = entry
        guard !line.trimmingSpaces().isEmpty else { return }
        add_history(line)
        if let historyPath {
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, 1000)
        }
    }
}

/// The interactive loop: reads complete entries (continuing while a bracket or
/// string is open), runs them in one session so state persists, and handles
/// meta-commands.
struct REPL {
    let session: Session
    var transcript: [String] = []

    init(session: Session) {
        self.session = session
    }

    mutating func run() -> Int32 {
        var input = ReadlineInput()
        Runner.stdout("kvo-run REPL — type :help for commands, Ctrl-D to quit.\n")
        while let entry = readEntry(&input) {
            input.remember(entry)
            let trimmed = entry.trimmingSpaces()
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix(":") {
                if !meta(trimmed) { break }
                continue
            }
            let status = session.run(entry, file: "<repl>")
            if status != ExitStatus.scriptErrors { transcript.append(entry) }
        }
        return ExitStatus.success
    }

    /// Reads lines until brackets and strings balance.
    private func readEntry(_ input: inout ReadlineInput) -> String? {
        var lines: [String] = []
        while true {
            guard let line = input.readLine(prompt: lines.isEmpty ? "kvo> " : "...> ") else {
                if lines.isEmpty { Runner.stdout("\n") ; return nil }
                return lines.joined(separator: "\n")
            }
            lines.append(line)
            if lines.count == 1 && line.trimmingSpaces().hasPrefix(":") { return line }
            if Balance.isComplete(lines.joined(separator: "\n")) { return lines.joined(separator: "\n") }
        }
    }

    static let commands = ["help", "quit", "load", "save", "reset", "objects", "info", "classes"]

    /// Runs a meta-command; false means quit.
    private mutating func meta(_ text: String) -> Bool {
        let parts = text.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let word = parts.first ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingSpaces() : ""
        let matches = Self.commands.filter { $0.hasPrefix(word) }
        guard !word.isEmpty, let command = matches.count == 1 ? matches[0] : matches.first(where: { $0 == word }) else {
            Runner.stdout("unknown command ':\(word)'; type :help for the list\n")
            return true
        }
        switch command {
        case "help":
            Runner.stdout("""
                :help          this list
                :quit          leave (Ctrl-D on an empty line too)
                :load FILE     run a scenario file in this session
                :save FILE     write this session's accepted input as a scenario
                :reset         forget every class, object and observation
                :objects       every object bound to a name, with its class and whether it is observed
                :info NAME     the observation info of an object
                :classes       the declared classes

                """)
        case "quit":
            return false
        case "load":
            do {
                let source = try Files.read(argument)
                if session.run(source, file: argument) != ExitStatus.scriptErrors { transcript.append(source) }
            } catch {
                Runner.stdout("\(error)\n")
            }
        case "save":
            do {
                try Files.write(transcript.joined(separator: "\n") + "\n", to: argument)
                Runner.stdout("saved \(transcript.count) entries to \(argument)\n")
            } catch {
                Runner.stdout("\(error)\n")
            }
        case "reset":
            Runner.stdout("reset is not available yet; restart kvo-run\n")
        default:
            _ = session.run(command == "info" ? "print(\(argument).observationInfo)" : "print(\"\")", file: "<repl>")
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
            if lineComment { if c == "\n" { lineComment = false }; continue }
            if commentDepth > 0 {
                if previous == "*" && c == "/" { commentDepth -= 1 }
                if previous == "/" && c == "*" { commentDepth += 1 }
                continue
            }
            if inString {
                if c == "\\" { _ = iterator.next(); continue }
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

    func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
