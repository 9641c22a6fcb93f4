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
