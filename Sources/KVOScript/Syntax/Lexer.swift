/// Turns source text into tokens. Hand-written: the language is small, and
/// string interpolation and leading-dot literals need context a generic
/// tokenizer would not give.
struct Lexer {
    private let source: String
    private let chars: [Character]
    private var index = 0
    /// UTF-8 offset of `chars[index]` in `source`, for interpolations' source.
    private var offset = 0
    private var line: Int
    private var column: Int
    private(set) var tokens: [Token] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Interpolations nest strings inside strings; bounded like parser nesting.
    private let nesting: Int
    /// Lexing an interpolation's expression: stop before the `)` that closes
    /// it, or at the end of the line.
    private var stopsAtClosingParen = false
    private var parenDepth = 0
    /// The deepest interpolation lexed (each level recurses once). Well
    /// past the parser's limit, which reports anything near it.
    static let maxNesting = 1024

    init(_ source: String, start: SourceLocation = SourceLocation(line: 1, column: 1), nesting: Int = 0) {
        self.source = source
        self.chars = Array(source)
        // Never more tokens than characters (and one for the end): reserved
        // once, the array is never copied to grow, and the pages past the
        // last token are never touched, so they cost address space, not memory.
        tokens.reserveCapacity(chars.count + 1)
        self.line = start.line
        self.column = start.column
        self.nesting = nesting
    }

    /// A lexer for the interpolation starting where `outer` stands, sharing
    /// its characters.
    private init(interpolationIn outer: Lexer) {
        source = outer.source
        chars = outer.chars
        index = outer.index
        offset = outer.offset
        line = outer.line
        column = outer.column
        nesting = outer.nesting + 1
        stopsAtClosingParen = true
    }

    static func tokenize(
        _ source: String, start: SourceLocation = SourceLocation(line: 1, column: 1), nesting: Int = 0
    ) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var lexer = Lexer(source, start: start, nesting: nesting)
        lexer.run()
        return (lexer.tokens, lexer.diagnostics)
    }

    private var current: Character? { index < chars.count ? chars[index] : nil }
    private func peek(_ offset: Int = 1) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }
    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private mutating func advance() {
        guard index < chars.count else { return }
        if chars[index] == "\n" || chars[index] == "\r\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        offset += chars[index].utf8.count
        index += 1
    }

    private mutating func add(_ kind: Token.Kind, at start: SourceLocation, length: Int) {
        tokens.append(Token(kind: kind, location: start, length: length))
    }

    private mutating func error(_ message: LexerMessage, at start: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.error, message, at: start, length: length))
    }

    private mutating func run() {
        if nesting == 0, current == "#", peek() == "!" {
            while let c = current, c != "\n" && c != "\r\n" { advance() }
        }
        while let c = current {
            let start = location
            let startIndex = index
            if stopsAtClosingParen {
                if c == "\n" || c == "\r\n" { break }
                if c == "(" { parenDepth += 1 }
                if c == ")" {
                    if parenDepth == 0 { break }
                    parenDepth -= 1
                }
            }
            if c == "\n" || c == "\r\n" {
                advance()
                add(.newline, at: start, length: 1)
            } else if c == " " || c == "\t" || c == "\r" {
                advance()
            } else if c == "/" && peek() == "/" {
                while let c = current, c != "\n" && c != "\r\n" { advance() }
            } else if c == "/" && peek() == "*" {
                skipBlockComment(start)
            } else if c.isASCIILetter || c == "_" {
                var name = ""
                while let c = current, c.isASCIILetter || c.isASCIIDigit || c == "_" {
                    name.append(c)
                    advance()
                }
                // `context` is contextual: a declaration at the start of a
                // statement, an ordinary name (observeValue's parameter) elsewhere.
                if let keyword = Keyword(rawValue: name), keyword != .context {
                    add(.keyword(keyword), at: start, length: name.count)
                } else {
                    add(.identifier(name), at: start, length: name.count)
                }
            } else if c.isASCIIDigit {
                lexNumber(start)
            } else if c == "\"" {
                lexString(start)
            } else if c == "@" {
                advance()
                var name = ""
                while let c = current, c.isASCIILetter || c.isASCIIDigit || c == "_" {
                    name.append(c)
                    advance()
                }
                if name.isEmpty { error(.missingAttributeName, at: start) }
                add(.attribute(name), at: start, length: name.count + 1)
            } else if c == "." && (peek()?.isASCIILetter ?? false) && !previousEndsExpression {
                advance()
                var name = ""
                while let c = current, c.isASCIILetter || c.isASCIIDigit || c == "_" {
                    name.append(c)
                    advance()
                }
                add(.dotName(name), at: start, length: name.count + 1)
            } else if c == "." && (peek()?.isASCIIDigit ?? false) && !previousEndsExpression {
                advance()
                var digits = ""
                while let c = current, c.isASCIIDigit {
                    digits.append(c)
                    advance()
                }
                error(.leadingDotNumber(digits: digits), at: start, length: index - startIndex)
            } else if c == "#" && !(peek()?.isASCIILetter ?? false) {
                advance()
                error(.strayHash, at: start)
            } else if let op = matchPunct() {
                for _ in 0..<op.count { advance() }
                add(.punct(op), at: start, length: op.count)
            } else {
                advance()
                error(.unexpectedCharacter(c), at: start)
            }
        }
        add(.eof, at: location, length: 1)
    }

    /// Whether a `.` here continues an expression (member access) rather than
    /// starting a literal like `.new`.
    private var previousEndsExpression: Bool {
        guard let last = tokens.last else { return false }
        switch last.kind {
        case .identifier, .integer, .double, .string: return true
        case .keyword(let keyword):
            return keyword == .self || keyword == .super || keyword == .true || keyword == .false || keyword == .nil
        case .punct(let p): return p == ")" || p == "]" || p == "?" || p == "!"
        default: return false
        }
    }

    private static let puncts = [
        "..<", "...", "==", "!=", "<=", ">=", "&&", "||", "->", "+=", "-=", "*=", "/=", "%=",
        "??", "(", ")", "{", "}", "[", "]", ",", ":", ";", ".", "=", "+", "-", "*", "/", "%",
        "<", ">", "!", "?", "\\", "&", "#",
    ]

    /// The operators as characters, longest first, kept with their text:
    /// matching compares characters instead of walking every operator's String.
    private static let punctTable: [(text: String, chars: [Character])] = puncts.map { ($0, Array($0)) }

    private func matchPunct() -> String? {
        guard let first = current, first.isASCII else { return nil }
        for entry in Self.punctTable where entry.chars[0] == first {
            var matches = true
            for offset in entry.chars.indices.dropFirst() where peek(offset) != entry.chars[offset] {
                matches = false
                break
            }
            if matches { return entry.text }
        }
        return nil
    }

    private mutating func skipBlockComment(_ start: SourceLocation) {
        var depth = 0
        repeat {
            if current == "/" && peek() == "*" {
                depth += 1
                advance()
                advance()
            } else if current == "*" && peek() == "/" {
                depth -= 1
                advance()
                advance()
            } else if current == nil {
                error(.unterminatedBlockComment, at: start, length: 2)
                return
            } else {
                advance()
            }
        } while depth > 0
    }

    private mutating func lexNumber(_ start: SourceLocation) {
        var text = ""
        var isDouble = false
        func digits(_ lexer: inout Lexer, into text: inout String) {
            while let c = lexer.current, c.isASCIIDigit || c == "_" {
                if c != "_" { text.append(c) }
                lexer.advance()
            }
        }
        digits(&self, into: &text)
        if current == ".", peek()?.isASCIIDigit ?? false {
            isDouble = true
            text.append(".")
            advance()
            digits(&self, into: &text)
        }
        if current == "e" || current == "E" {
            let save = (index, line, column)
            var exponent = "e"
            advance()
            if current == "+" || current == "-" {
                exponent.append(current ?? "+")
                advance()
            }
            if current?.isASCIIDigit ?? false {
                isDouble = true
                text += exponent
                digits(&self, into: &text)
            } else {
                (index, line, column) = save
            }
        }
        let length = column - start.column
        if let c = current, c.isASCIILetter || c == "_" {
            error(.letterInNumber(c), at: location)
        }
        if isDouble {
            guard let value = Double(text), value.isFinite else {
                error(.numberTooLarge(text), at: start, length: length)
                add(.double(0), at: start, length: length)
                return
            }
            add(.double(value), at: start, length: length)
        } else if let value = Int(text) {
            add(.integer(value), at: start, length: length)
        } else {
            error(.integerOverflow(text), at: start, length: length)
            add(.integer(0), at: start, length: length)
        }
    }

    private mutating func lexString(_ start: SourceLocation) {
        advance()  // opening quote
        var parts: [StringPart] = []
        var text = ""
        while true {
            guard let c = current, c != "\n", c != "\r\n" else {
                error(.unterminatedString, at: start)
                break
            }
            if c == "\"" {
                advance()
                break
            }
            if c == "\\" {
                let escapeStart = location
                advance()
                switch current {
                case "n":
                    text.append("\n")
                    advance()
                case "t":
                    text.append("\t")
                    advance()
                case "r":
                    text.append("\r")
                    advance()
                case "0":
                    text.append("\0")
                    advance()
                case "\"":
                    text.append("\"")
                    advance()
                case "\\":
                    text.append("\\")
                    advance()
                case "'":
                    text.append("'")
                    advance()
                case "u":
                    advance()
                    guard current == "{" else {
                        error(.unicodeEscapeNeedsOpenBrace, at: escapeStart, length: 2)
                        continue
                    }
                    advance()
                    var hex = ""
                    while let h = current, h.isHexDigit, hex.count < 8 {
                        hex.append(h)
                        advance()
                    }
                    if current == "}" {
                        advance()
                    } else {
                        error(.unicodeEscapeNeedsCloseBrace, at: escapeStart, length: 2)
                    }
                    if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                        text.unicodeScalars.append(scalar)
                    } else {
                        error(.invalidUnicodeScalar(hex: hex), at: escapeStart, length: hex.count + 4)
                    }
                case "(" where nesting < Self.maxNesting:
                    advance()
                    if !text.isEmpty {
                        parts.append(.text(text))
                        text = ""
                    }
                    let codeStart = location
                    let codeOffset = offset
                    var inner = Lexer(interpolationIn: self)
                    inner.run()
                    diagnostics += inner.diagnostics
                    (index, offset, line, column) = (inner.index, inner.offset, inner.line, inner.column)
                    if current == ")" {
                        let utf8 = source.utf8
                        let code = source[
                            utf8.index(
                                utf8.startIndex, offsetBy: codeOffset)..<utf8.index(utf8.startIndex, offsetBy: offset)]
                        advance()
                        parts.append(.interpolation(source: code, at: codeStart, tokens: inner.tokens))
                    } else {
                        error(.unterminatedInterpolation, at: escapeStart, length: 2)
                    }
                case "(":
                    // Too deep to lex: skipped to its end, for one error.
                    advance()
                    if !text.isEmpty {
                        parts.append(.text(text))
                        text = ""
                    }
                    error(.interpolationTooDeep(maxNesting: Self.maxNesting), at: escapeStart, length: 2)
                    var depth = 1
                    var inString = false
                    while let c = current, c != "\n", c != "\r\n" {
                        if inString {
                            if c == "\\" {
                                advance()
                                advance()
                                continue
                            }
                            if c == "\"" { inString = false }
                        } else if c == "\"" {
                            inString = true
                        } else if c == "(" {
                            depth += 1
                        } else if c == ")" {
                            depth -= 1
                            if depth == 0 { break }
                        }
                        advance()
                    }
                    if current == ")" { advance() }
                default:
                    error(.invalidEscape(current), at: escapeStart, length: 2)
                    advance()
                }
                continue
            }
            text.append(c)
            advance()
        }
        if !text.isEmpty || parts.isEmpty { parts.append(.text(text)) }
        let length = start.line == line ? column - start.column : 1
        add(.string(parts), at: start, length: length)
    }
}

extension Character {
    // By code, not through Unicode's properties: the lexer asks for every character.
    public var isASCIILetter: Bool {
        guard let code = asciiValue else { return false }
        return (code | 0x20) >= UInt8(ascii: "a") && (code | 0x20) <= UInt8(ascii: "z")
    }
    public var isASCIIDigit: Bool {
        guard let code = asciiValue else { return false }
        return code >= UInt8(ascii: "0") && code <= UInt8(ascii: "9")
    }
}
