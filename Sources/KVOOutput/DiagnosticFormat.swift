import KVOCore

/// A diagnostic as kvo-run shows it (docs/language.md#diagnostics): for a
/// scenario (KVOScript's `Diagnostic.render`, KVORun's `EventRenderer`) and
/// for a compiled Swift program's runtime errors and warnings alike.
public enum DiagnosticFormat {
    public enum Severity: String, Sendable {
        case error, warning, note
    }

    /// `file:line:col: error: message`, the source line and a caret under
    /// the `length` characters from the column; no newline at the end.
    ///
    /// Control and bidirectional-override characters (`ControlCharacters`) in
    /// the message and the source line are shown escaped (`\u{1B}`): a binary
    /// file's bytes must not drive the terminal. The caret stays under its
    /// column: each escaped character is padded to its escape's width.
    public static func text(
        _ severity: Severity, _ message: String, file: String, line: Int, column: Int, length: Int = 1,
        sourceLine: [Character]?, color: Bool = false
    ) -> String {
        let header = "\(ControlCharacters.escaping(file)):\(line):\(column): "
        let paint: Paint
        switch severity {
        case .error: paint = .boldRed
        case .warning: paint = .boldMagenta
        case .note: paint = .boldCyan
        }
        let label = paint("\(severity.rawValue):", if: color)
        let message = ControlCharacters.escaping(message, keepingNewlines: true)
        var text = header + label + " " + Paint.bold(message, if: color)
        if let characters = sourceLine {
            var column = column
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
            let caretCount = min(max(1, length), max(1, shownLine.count - (column - 1)))
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
            text += "\n" + line + "\n" + prefix + Paint.boldGreen(caret, if: color)
        }
        return text
    }

    /// A character as the source line under a diagnostic shows it.
    private static func shown(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: { ControlCharacters.mustEscape($0) }) else {
            return String(character)
        }
        return ControlCharacters.escaping(String(character))
    }

    /// The JSON Lines event of an error or a warning (a note has none:
    /// docs/language.md#json-format); `file` names it when a run checks
    /// several files.
    public static func json(
        _ severity: Severity, _ message: String, line: Int, column: Int, file: String? = nil
    )
        -> String
    {
        json(severity, message, position: (line, column), file: file)
    }

    /// The same event for what may have no position: an error about a file
    /// itself (unreadable, not UTF-8, too large) has one only where bad
    /// bytes were found.
    public static func json(
        _ severity: Severity, _ message: String, position: (line: Int, column: Int)?, file: String?
    ) -> String {
        var pairs = [("event", JSONFormat.string(severity.rawValue)), ("message", JSONFormat.string(message))]
        if let (line, column) = position { pairs += [("line", String(line)), ("column", String(column))] }
        if let file { pairs.append(("file", JSONFormat.string(file))) }
        return JSONFormat.object(pairs)
    }
}
