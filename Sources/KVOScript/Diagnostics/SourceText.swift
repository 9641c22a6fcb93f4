import KVOCore
import KVOOutput

/// A scenario's text, split into lines for diagnostics.
/// Not Sendable: its line cache is filled lazily, without a lock.
public struct SourceText {
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
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
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
