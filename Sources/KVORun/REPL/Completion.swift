import KVOCore
import KVOScript
/// Tab completion for the REPL, kept apart from readline so it can be tested:
/// keywords and names in scope, members after `name.`, meta-commands after `:`,
/// and keys inside `forKeyPath: "…"` / `forKey: "…"` strings.
public enum Completion {
    public struct Result: Equatable {
        public var candidates: [String]
        /// What to add after a unique completion: a space, a closing quote, or nothing.
        public var append: String
        /// Complete a file name instead (after `:load` and `:save`).
        public var files = false

        public init(candidates: [String], append: String, files: Bool = false) {
            self.candidates = candidates
            self.append = append
            self.files = files
        }
    }

    public static let metaCommands = [
        ":help", ":quit", ":load", ":save", ":reset", ":objects", ":info", ":classes",
        ":set", ":explain", ":graph",
    ]

    /// `before` is the line up to the word being completed; `word` the word.
    public static func complete(before: String, word: String, session: Session) -> Result {
        if let receiver = keyPathReceiver(before) {
            let single = before.hasSuffix("forKey: \"") || before.hasSuffix("forKey:\"")
            var candidates = session.keyPathCompletions(ofVariable: receiver, partial: word)
            if single { candidates = candidates.filter { !$0.dropLast().contains(".") } }
            let open = candidates.count == 1 && candidates[0].hasSuffix(".")
            return Result(candidates: candidates, append: candidates.count == 1 && !open ? "\"" : "")
        }
        if takesFileName(before) { return Result(candidates: [], append: "", files: true) }
        if let candidates = metaArgumentCandidates(before, session: session) {
            return Result(candidates: candidates.filter { $0.hasPrefix(word) }, append: "")
        }
        if before.trimmingLeadingSpaces().isEmpty && word.hasPrefix(":") {
            return Result(candidates: metaCommands.filter { $0.hasPrefix(word) }, append: " ")
        }
        if let dot = word.lastIndex(of: ".") {
            let receiver = String(word[..<dot])
            let partial = String(word[word.index(after: dot)...])
            if receiver.isEmpty {
                return Result(candidates: Session.dotLiterals.filter { $0.hasPrefix(word) }, append: "")
            }
            var members = session.memberNames(ofVariable: receiver)
            if !members.isEmpty { members += Session.foundationMethodCompletions }
            let found = Set(members.filter { $0.hasPrefix(partial) }).sorted()
            return Result(candidates: found.map { receiver + "." + $0 }, append: "")
        }
        let names = Set(Session.keywords + session.namesInScope)
        return Result(candidates: names.filter { $0.hasPrefix(word) }.sorted(), append: " ")
    }

    /// Whether `before` is `:load `, `:save ` or `:graph ` (or a prefix of
    /// one), so that what follows is a file name.
    static func takesFileName(_ before: String) -> Bool {
        let command = before.trimmingLeadingSpaces()
        guard command.hasPrefix(":") else { return false }
        let name = command.dropFirst().prefix { $0 != " " }
        return !name.isEmpty && command.contains(" ")
            && [":load", ":save", ":graph"].contains { $0.hasPrefix(":" + name) }
    }

    /// What may follow a meta-command that takes an argument other than a
    /// file: an object's name after `:info`, `on`/`off` after `:explain`, a
    /// limit after `:set`. Nil when `before` is not such a command.
    static func metaArgumentCandidates(_ before: String, session: Session) -> [String]? {
        let command = before.trimmingLeadingSpaces()
        guard command.hasPrefix(":"), let space = command.firstIndex(of: " ") else { return nil }
        let name = command[command.index(after: command.startIndex)..<space]
        let arguments = command[space...].split(separator: " ")
        guard !name.isEmpty, arguments.isEmpty else { return arguments.isEmpty ? nil : [] }
        let matches = metaCommands.filter { $0.dropFirst().hasPrefix(name) }
        let resolved = matches.contains(":" + name) ? ":" + name : matches.count == 1 ? matches[0] : nil
        switch resolved {
        case ":info": return session.objectNames
        case ":explain": return ["on", "off"]
        case ":set": return ["max-depth", "max-steps"]
        case nil: return nil
        default: return []
        }
    }

    /// The variable whose key path is being typed, when the cursor is inside
    /// the string of a `forKeyPath:` or `forKey:` argument of `NAME.method(…`.
    static func keyPathReceiver(_ before: String) -> String? {
        let labels = ["forKeyPath: \"", "forKeyPath:\"", "forKey: \"", "forKey:\""]
        guard labels.contains(where: { before.hasSuffix($0) }) else { return nil }
        // Walk back to the `(` that opens this call, skipping nested brackets.
        var depth = 0
        var index = before.endIndex
        while index > before.startIndex {
            index = before.index(before: index)
            let character = before[index]
            if character == ")" || character == "]" { depth += 1 }
            if character == "(" || character == "[" {
                if depth == 0 { break }
                depth -= 1
            }
        }
        guard index > before.startIndex, before[index] == "(" else { return nil }
        // `receiver.method(`: the method name, a dot, then the receiver.
        var cursor = index
        while cursor > before.startIndex, before[before.index(before: cursor)].isIdentifierCharacter {
            cursor = before.index(before: cursor)
        }
        guard cursor > before.startIndex, before[before.index(before: cursor)] == "." else { return nil }
        let receiverEnd = before.index(before: cursor)
        var receiverStart = receiverEnd
        while receiverStart > before.startIndex, before[before.index(before: receiverStart)].isIdentifierCharacter {
            receiverStart = before.index(before: receiverStart)
        }
        let receiver = String(before[receiverStart..<receiverEnd])
        return receiver.isEmpty ? nil : receiver
    }
}

extension Character {
    var isIdentifierCharacter: Bool { isASCIILetter || isASCIIDigit || self == "_" }
}

extension String {
    func trimmingLeadingSpaces() -> Substring { drop { $0 == " " || $0 == "\t" } }
}
