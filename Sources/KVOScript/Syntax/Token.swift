/// A lexical token with where it starts.
struct Token: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case keyword(Keyword)
        case integer(Int)
        case double(Double)
        case string([StringPart])
        /// `.new`, `.insertion`, `.union`…: a leading-dot literal.
        case dotName(String)
        /// `@manual`, `@affectedBy`.
        case attribute(String)
        case punct(String)
        case newline
        case eof
    }

    var kind: Kind
    // Position and length as 32-bit numbers: a token is 32 bytes rather than
    // 48, and a scenario's tokens were most of the memory it cost to read
    // (Files.maxSourceBytes keeps every line and column far below 2^31).
    private var line: Int32
    private var column: Int32
    private var span: Int32

    init(kind: Kind, location: SourceLocation, length: Int) {
        self.kind = kind
        line = Int32(clamping: location.line)
        column = Int32(clamping: location.column)
        span = Int32(clamping: length)
    }

    var location: SourceLocation {
        get { SourceLocation(line: Int(line), column: Int(column)) }
        set {
            line = Int32(clamping: newValue.line)
            column = Int32(clamping: newValue.column)
        }
    }

    /// Characters the token spans, for carets.
    var length: Int {
        get { Int(span) }
        set { span = Int32(clamping: newValue) }
    }
}

/// A piece of a string literal: text, or an interpolated expression.
enum StringPart: Equatable {
    case text(String)
    /// The expression's source, where it starts, and its tokens: the lexer
    /// lexes an interpolation once, with the string around it. Re-lexing
    /// each level's source from the parser cost time quadratic in the
    /// nesting (120 levels around a 1 MB literal took 13 s).
    case interpolation(source: Substring, at: SourceLocation, tokens: [Token])

    /// An interpolation as tests write it: compared by source and location.
    static func interpolation(source: Substring, at location: SourceLocation) -> StringPart {
        .interpolation(source: source, at: location, tokens: [])
    }

    /// Tokens follow from the source, so two interpolations compare by
    /// source and location.
    static func == (lhs: StringPart, rhs: StringPart) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): return a == b
        case (.interpolation(let a, let p, _), .interpolation(let b, let q, _)): return a == b && p == q
        case (.text, .interpolation), (.interpolation, .text): return false
        }
    }
}

enum Keyword: String, CaseIterable {
    case `class`, context, `var`, `let`, `func`, `static`, `if`, `else`, `for`, `in`, `while`, `do`,
        `catch`, `return`, `self`, `super`, `nil`, `true`, `false`, release
}
