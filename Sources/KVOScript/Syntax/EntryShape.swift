/// Whether the lines typed so far make a whole REPL entry, by the rule a file
/// follows: a line continues while a `(`, `[` or `{` is open, or when it ends
/// with a binary operator or `,`. A `}` that closes an `if` or a `do` may be
/// followed by `else` or `catch` on the next line, so the REPL has to look at
/// that line before it knows.
public enum EntryShape: Equatable {
    case complete
    case open
    /// Complete, unless the next line starts with `else` or `catch`.
    case mayContinue

    /// Operators that cannot end an expression: a line ending with one goes on.
    static let continuing: Set<String> = [
        "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "=",
        "+", "-", "*", "/", "%", "<", ">", "..<", "...", "->", ",",
    ]

    public static func of(_ source: String) -> EntryShape {
        let (tokens, diagnostics) = Lexer.tokenize(source)
        // An unclosed block comment swallows what follows: keep reading. An
        // unclosed string is an error the parser reports once.
        if diagnostics.contains(where: { $0.id == LexerMessage.unterminatedBlockComment.id }) { return .open }
        if diagnostics.contains(where: { $0.id == LexerMessage.unterminatedString.id }) { return .complete }
        var depth = 0
        var statementStart: Keyword?
        var atStatementStart = true
        var last: Token.Kind?
        // A `catch`, or an `else` not followed by `if`, is the statement's last clause.
        var lastClause = false
        var afterElse = false
        for token in tokens {
            if depth == 0 && token.kind != .newline && token.kind != .eof {
                if afterElse { lastClause = token.kind != .keyword(.if) }
                afterElse = token.kind == .keyword(.else)
                if token.kind == .keyword(.catch) { lastClause = true }
            }
            switch token.kind {
            case .eof:
                continue
            case .newline:
                if depth == 0 { atStatementStart = true }
                continue
            case .punct(let p):
                if p == "(" || p == "[" || p == "{" { depth += 1 }
                if p == ")" || p == "]" || p == "}" { depth -= 1 }
                if p == ";" && depth == 0 {
                    atStatementStart = true
                    last = token.kind
                    continue
                }
            default:
                break
            }
            if atStatementStart {
                atStatementStart = false
                if case .keyword(let keyword) = token.kind, keyword == .else || keyword == .catch {
                    // The same statement, continued.
                } else if case .keyword(let keyword) = token.kind {
                    statementStart = keyword
                    lastClause = false
                } else {
                    statementStart = nil
                    lastClause = false
                }
            }
            last = token.kind
        }
        if depth > 0 { return .open }
        guard let last else { return .complete }
        if case .punct(let p) = last {
            if continuing.contains(p) { return .open }
            if p == "}" && depth == 0 && (statementStart == .if || statementStart == .do) && !lastClause {
                return .mayContinue
            }
        }
        return .complete
    }

    /// Whether `line` starts with `else` or `catch`, continuing an `if` or a `do`.
    public static func continuesBlock(_ line: String) -> Bool {
        let first = Lexer.tokenize(line).tokens.first { $0.kind != .newline }
        return first?.kind == .keyword(.else) || first?.kind == .keyword(.catch)
    }
}
