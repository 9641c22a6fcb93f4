#if canImport(Glibc)
import Glibc
#endif

/// Splits a command line printed by the Swift driver (single quotes around
/// an argument that needs them, `'\''` for a quote inside) or by clang
/// (every argument in double quotes, backslash escapes) into its arguments,
/// as a POSIX shell would; nil when a quote is not closed.
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "'", "\"":
                // Up to the same quote; inside double quotes (only), a
                // backslash takes the next character as it is.
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == character {
                        closed = true
                        break
                    }
                    if next == "\\" && character == "\"" {
                        guard let escaped = characters.next() else { return nil }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
                if !closed { return nil }
            case "\\":
                inWord = true
                guard let escaped = characters.next() else { return nil }
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
