import KVOCore

/// Text inside XML (the JUnit report, the sequence diagram's SVG, the HTML-like
/// labels of the observation graph, which Graphviz parses as XML): the five
/// XML specials as entities, and every character that must not appear
/// written visibly as `\u{…}`, never dropped.
public enum XMLText {
    /// `keepingLineBreaks`: line breaks stay as they are (a report's
    /// multi-line text); else they are escaped too (a name).
    public static func escaped(_ text: String, keepingLineBreaks: Bool = true) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\r":
                // (A `where` would bind to the last pattern only.) A tab stays.
                if keepingLineBreaks {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += ControlCharacters.escape(scalar)
                }
            default:
                if mustEscape(scalar) {
                    result += ControlCharacters.escape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` with what `mustEscape` names as `\u{…}` (line breaks too): for
    /// a DOT string, which Graphviz copies into its SVG.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) {
                result += ControlCharacters.escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What no picture or report shows raw: the control and bidi characters
    /// escaped everywhere (`ControlCharacters`), the characters XML 1.0
    /// forbids (below U+20 but tab and line breaks; U+FFFE, U+FFFF), and
    /// every Unicode noncharacter (U+FDD0–U+FDEF and the last two code points
    /// of each plane), which Graphviz's XML parser refuses and browsers may
    /// show as nothing.
    @inline(__always)
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacters.mustEscape(scalar) || isNoncharacter(scalar)
    }

    @inline(__always)
    public static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }
}
