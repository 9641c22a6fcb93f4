import KVOCore

/// A position in a scenario: 1-based line and column, columns counting Characters.
public struct SourceLocation: Hashable, Sendable, Comparable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A problem with a scenario, reported compiler-style (SPEC §9).
public struct Diagnostic: Error, Equatable, Sendable {
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    /// Characters the caret line underlines.
    public var length: Int

    public init(_ severity: Severity = .error, _ message: String, at location: SourceLocation, length: Int = 1) {
        self.severity = severity
        self.message = message
        self.location = location
        self.length = max(1, length)
    }

    /// `file:line:col: error: message`, the source line and a caret under the range.
    ///
    /// Control and bidirectional-override characters (`ControlCharacters`) in
    /// the message and the source line are shown escaped (`\u{1B}`): a binary
    /// file's bytes must not drive the terminal. The caret stays under its
    /// column: each escaped character is padded to its escape's width.
    public func render(file: String, source: SourceText, color: Bool = false) -> String {
        let header = "\(ControlCharacters.escaping(file)):\(location.line):\(location.column): "
        let label = color ? (severity == .error ? "\u{1B}[1;31merror:\u{1B}[0m" : "\u{1B}[1;35mwarning:\u{1B}[0m") : "\(severity.rawValue):"
        let message = ControlCharacters.escaping(self.message, keepingNewlines: true)
        var text = header + label + " " + (color ? "\u{1B}[1m\(message)\u{1B}[0m" : message)
        if let characters = source.lineCharacters(location.line) {
            var column = location.column
            var shownLine: [Character]
            // A very long line is shown as a window around the column.
            if characters.count > 160 {
                let start = min(max(0, column - 80), characters.count)
                let end = min(characters.count, start + 160)
                shownLine = (start > 0 ? ["…"] : []) + characters[start..<end] + (end < characters.count ? ["…"] : [])
                column = column - start + (start > 0 ? 1 : 0)
            } else {
                shownLine = characters
            }
            var line = "", prefix = "", caret = ""
            let caretCount = min(length, max(1, shownLine.count - (column - 1)))
            for (offset, character) in shownLine.enumerated() {
                let shown = Self.shown(character)
                line += shown
                if offset < column - 1 {
                    prefix += character == "\t" ? "\t" : String(repeating: " ", count: shown.count)
                } else if offset < column - 1 + caretCount {
                    let mark: String = caret.isEmpty ? "^" : "~"
                    caret += mark
                    caret += String(repeating: "~", count: max(0, shown.count - 1))
                }
            }
            if caret.isEmpty { caret = "^" }
            text += "\n" + line + "\n" + prefix + (color ? "\u{1B}[1;32m\(caret)\u{1B}[0m" : caret)
        }
        return text
    }

    /// A character as the source line under a diagnostic shows it.
    private static func shown(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: { ControlCharacters.mustEscape($0) }) else { return String(character) }
        return ControlCharacters.escaping(String(character))
    }
}

/// A scenario's text, split into lines for diagnostics.
public struct SourceText: @unchecked Sendable {
    public let text: String
    /// Lines, split when a diagnostic first needs one: a scenario without
    /// errors never pays for an array of every line while it is read.
    private let cache = Cache()

    private final class Cache {
        var lines: [Substring]?
        /// Lines as characters, made once each: a long line with many errors
        /// would otherwise be copied and walked again for every caret.
        var characters: [Int: [Character]] = [:]
    }

    public init(_ text: String) {
        self.text = text
    }

    private var lines: [Substring] {
        if let lines = cache.lines { return lines }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        cache.lines = lines
        return lines
    }

    func lineCharacters(_ number: Int) -> [Character]? {
        if let cached = cache.characters[number] { return cached }
        guard let line = line(number) else { return nil }
        let characters = Array(line)
        cache.characters[number] = characters
        return characters
    }

    public func line(_ number: Int) -> String? {
        let lines = self.lines
        guard number >= 1, number <= lines.count else { return nil }
        var line = String(lines[number - 1])
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}

/// "did you mean …?" for a misspelled name, from the candidates in scope.
enum Suggestion {
    /// The candidate nearest to `name` ignoring case, within a third of its
    /// length. Ties go to the nearer spelling with case, then to the first in
    /// alphabetical order: candidates often come from a dictionary, whose
    /// order changes from run to run, and the message must not.
    static func closest(to name: String, in candidates: [String]) -> String? {
        let limit = max(1, name.count / 3)
        var best: (distance: Int, exact: Int, candidate: String)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name.lowercased(), candidate.lowercased(), limit: limit)
            guard distance <= limit else { continue }
            let exact = editDistance(name, candidate, limit: limit + name.count)
            if let current = best, (current.distance, current.exact, current.candidate) <= (distance, exact, candidate) { continue }
            best = (distance, exact, candidate)
        }
        return best?.candidate
    }

    static func didYouMean(_ name: String, in candidates: [String]) -> String {
        closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance, giving up (returning limit + 1) past `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
