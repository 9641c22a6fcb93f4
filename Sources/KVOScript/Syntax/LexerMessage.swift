/// What the lexer reports.
enum LexerMessage: DiagnosticMessage {
    case missingAttributeName
    /// `.5`: the digits after the dot.
    case leadingDotNumber(digits: String)
    case strayHash
    case unexpectedCharacter(Character)
    case unterminatedBlockComment
    case letterInNumber(Character)
    case numberTooLarge(String)
    case integerOverflow(String)
    case unterminatedString
    case unicodeEscapeNeedsOpenBrace
    case unicodeEscapeNeedsCloseBrace
    case invalidUnicodeScalar(hex: String)
    case unterminatedInterpolation
    case interpolationTooDeep(maxNesting: Int)
    /// The character after the backslash; nil at the end of the input.
    case invalidEscape(Character?)

    var id: MessageID { MessageID(domain: "lexer", id: caseName) }

    var text: String {
        switch self {
        case .missingAttributeName: return "expected an attribute name after '@'"
        case .leadingDotNumber(let digits): return "'.\(digits)' is not a number; write '0.\(digits)'"
        case .strayHash: return "unexpected character '#' in the scenario"
        case .unexpectedCharacter(let c):
            // Printable ASCII quoted; anything else (controls too) by number.
            let printable = c.asciiValue.map { $0 > 0x20 && $0 < 0x7F } ?? false
            let shown =
                printable ? "'\(c)'" : "U+" + String(c.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
            return "unexpected character \(shown) in the scenario"
        case .unterminatedBlockComment: return "unterminated '/*' comment; close it with '*/'"
        case .letterInNumber(let c): return "'\(c)' is not valid in a number literal"
        case .numberTooLarge(let text): return "number literal '\(text)' is too large"
        case .integerOverflow(let text): return "integer literal '\(text)' overflows Int (maximum \(Int.max))"
        case .unterminatedString: return "unterminated string literal; close it with '\"' on the same line"
        case .unicodeEscapeNeedsOpenBrace: return "expected '{' in '\\u{…}' escape"
        case .unicodeEscapeNeedsCloseBrace: return "expected '}' to close '\\u{…}'"
        case .invalidUnicodeScalar(let hex): return "invalid Unicode scalar '\\u{\(hex)}'"
        case .unterminatedInterpolation: return "unterminated interpolation '\\(' in string literal"
        case .interpolationTooDeep(let maxNesting):
            return "interpolations nested deeper than \(maxNesting) levels; split the expression"
        case .invalidEscape(let c):
            return "invalid escape sequence '\\\(c.map { String($0) } ?? "")' in string literal"
        }
    }
}
