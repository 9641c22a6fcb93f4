/// Characters that act on a terminal instead of showing: C0 controls (but
/// tab), DEL, C1 controls, and the bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069) that make a line read in an order
/// other than its bytes'. Whatever kvo-run composes from script text (change
/// dictionaries, diagnostics, exception lines) shows them escaped; only
/// `print` of a plain string writes them raw, as asked.
public enum ControlCharacters {
    @inline(__always)
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x08, 0x0A...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `\0`, `\r`, `\n`, else `\u{1B}`: Swift's spellings, which a scenario's strings accept.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\0": return "\\0"
        case "\r": return "\\r"
        case "\n": return "\\n"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `text` with every character of `mustEscape` escaped; newlines are kept
    /// when `keepingNewlines` (a multi-line message). Unchanged text is returned
    /// as is, after one scan.
    public static func escaping(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { mustEscape($0) && !(keepingNewlines && $0 == "\n") }) else {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) && !(keepingNewlines && scalar == "\n") {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
