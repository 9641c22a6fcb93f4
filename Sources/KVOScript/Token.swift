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
    var location: SourceLocation
    /// Characters the token spans, for carets.
    var length: Int
}

/// A piece of a string literal: text, or the source of an interpolated expression.
enum StringPart: Equatable {
    case text(String)
    case interpolation(source: String, at: SourceLocation)
}

enum Keyword: String, CaseIterable {
    case `class`, context, `var`, `let`, `func`, `static`, `if`, `else`, `for`, `in`, `while`, `do`,
         `catch`, `return`, `self`, `super`, `nil`, `true`, `false`, release
}
