import KVOCore
import KVOScript

/// What Tab completion asks of the session it completes for: a scenario's
/// (`Session`) or, after `import Foundation`, a Swift program's
/// (`SwiftCompletion`).
protocol CompletionSource {
    /// What a word may be at the start: keywords and the names in scope.
    var words: [String] { get }
    /// What may follow `name.`: properties and methods, the Foundation
    /// methods an object answers included; empty for a name it knows nothing of.
    func members(ofVariable name: String) -> [String]
    /// Completions of a partial key path (`account.bal`) from the object a
    /// variable holds; one that names a to-one relationship ends with `.`
    /// (in a Swift key path, `?.` after an optional), so typing goes on.
    /// `swift`: the path of a Swift key path (`\.account?.balance`).
    func keyPathCompletions(ofVariable name: String, partial: String, swift: Bool) -> [String]
    /// The variables that hold an object (`:info <Tab>`).
    var objectNames: [String] { get }
}

extension Session: CompletionSource {
    var words: [String] { Session.keywords + namesInScope }

    func members(ofVariable name: String) -> [String] {
        let members = memberNames(ofVariable: name)
        return members.isEmpty ? [] : members + Session.foundationMethodCompletions
    }

    func keyPathCompletions(ofVariable name: String, partial: String, swift: Bool) -> [String] {
        keyPathCompletions(ofVariable: name, partial: partial)
    }
}

/// Tab completion for the REPL, kept apart from readline so it can be tested:
/// keywords and names in scope, members after `name.`, meta-commands after `:`,
/// keys inside `forKeyPath: "…"` / `forKey: "…"` strings and after `\.`.
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
        complete(before: before, word: word, source: session)
    }

    static func complete(before: String, word: String, source: some CompletionSource) -> Result {
        if let receiver = keyPathReceiver(before) {
            let single = before.hasSuffix("forKey: \"") || before.hasSuffix("forKey:\"")
            var candidates = source.keyPathCompletions(ofVariable: receiver, partial: word, swift: false)
            if single { candidates = candidates.filter { !$0.dropLast().contains(".") } }
            let open = candidates.count == 1 && candidates[0].hasSuffix(".")
            return Result(candidates: candidates, append: candidates.count == 1 && !open ? "\"" : "")
        }
        if takesFileName(before) { return Result(candidates: [], append: "", files: true) }
        if let candidates = metaArgumentCandidates(before, objectNames: source.objectNames) {
            return Result(candidates: candidates.filter { $0.hasPrefix(word) }, append: "")
        }
        if before.trimmingLeadingSpaces().isEmpty && word.hasPrefix(":") {
            return Result(candidates: metaCommands.filter { $0.hasPrefix(word) }, append: " ")
        }
        // `o.observe(\.bal`: a Swift key path from the call's receiver.
        if word.hasPrefix("\\."), let receiver = callReceiver(before) {
            let candidates = source.keyPathCompletions(
                ofVariable: receiver, partial: String(word.dropFirst(2)), swift: true)
            return Result(candidates: candidates.map { "\\." + $0 }, append: "")
        }
        if let dot = word.lastIndex(of: ".") {
            let receiver = String(word[..<dot])
            let partial = String(word[word.index(after: dot)...])
            if receiver.isEmpty {
                return Result(candidates: Session.dotLiterals.filter { $0.hasPrefix(word) }, append: "")
            }
            let found = Set(source.members(ofVariable: receiver).filter { $0.hasPrefix(partial) }).sorted()
            return Result(candidates: found.map { receiver + "." + $0 }, append: "")
        }
        return Result(candidates: Set(source.words).filter { $0.hasPrefix(word) }.sorted(), append: " ")
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
    static func metaArgumentCandidates(_ before: String, objectNames: @autoclosure () -> [String]) -> [String]? {
        let command = before.trimmingLeadingSpaces()
        guard command.hasPrefix(":"), let space = command.firstIndex(of: " ") else { return nil }
        let name = command[command.index(after: command.startIndex)..<space]
        let arguments = command[space...].split(separator: " ")
        guard !name.isEmpty, arguments.isEmpty else { return arguments.isEmpty ? nil : [] }
        let matches = metaCommands.filter { $0.dropFirst().hasPrefix(name) }
        let resolved = matches.contains(":" + name) ? ":" + name : matches.count == 1 ? matches[0] : nil
        switch resolved {
        case ":info": return objectNames()
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
        return callReceiver(before)
    }

    /// The variable a method is called on, when `before` ends inside the
    /// arguments of `NAME.method(…`.
    static func callReceiver(_ before: String) -> String? {
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
