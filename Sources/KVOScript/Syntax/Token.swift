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

enum Keyword: String, CaseIterable {
    case `class`, context, `var`, `let`, `func`, `static`, `if`, `else`, `for`, `in`, `while`, `do`,
        `catch`, `return`, `self`, `super`, `nil`, `true`, `false`, release
}
