import KVOCore

/// Recursive-descent parser from tokens to `Stmt`s. Nesting is bounded
/// (`maxNesting`) so no input can overflow the stack; after an error it resumes
/// at the next statement, so one run reports several independent errors.
struct Parser {
    static let defaultMaxNesting = 256

    var tokens: [Token]
    var index = 0
    /// The token index of the `[` that may open a dictionary literal: the
    /// value of a `userInfo:` argument (an NSError's, which the checker
    /// verifies). Any other dictionary literal is reported while parsing, with
    /// the other unsupported Swift, and parsed on.
    var dictionaryAllowedAt: Int?
    var nesting = 0
    /// False while parsing an `if`/`while` condition, where `{` starts the body.
    var trailingClosureAllowed = true
    let maxNesting: Int
    let baseNesting: Int
    var diagnostics: [Diagnostic] = []
    /// Where each top-level statement begins (its first token), in order:
    /// the REPL cuts an entry into statements with them.
    var topLevelStarts: [SourceLocation] = []

    /// Thrown to abandon the current statement.
    struct Abandon: Error {}
    /// Thrown when nesting exceeds the limit: parsing stops.
    struct TooDeep: Error {}

    init(tokens: [Token], maxNesting: Int = Parser.defaultMaxNesting, baseNesting: Int = 0) {
        self.tokens = tokens
        self.maxNesting = maxNesting
        self.baseNesting = baseNesting
    }

    /// Parses a whole scenario (or one REPL entry).
    static func parse(
        _ source: String, maxNesting: Int = Parser.defaultMaxNesting
    ) -> (statements: [Stmt], diagnostics: [Diagnostic]) {
        let parsed = parseWithStarts(source, maxNesting: maxNesting)
        return (parsed.statements, parsed.diagnostics)
    }

    /// `parse`, with where each top-level statement begins.
    static func parseWithStarts(
        _ source: String, maxNesting: Int = Parser.defaultMaxNesting
    )
        -> (statements: [Stmt], starts: [SourceLocation], diagnostics: [Diagnostic])
    {
        let (tokens, lexDiagnostics) = Lexer.tokenize(source)
        var parser = Parser(tokens: tokens, maxNesting: maxNesting)
        let statements = parser.parseProgram()
        // An unterminated string leaves its brackets open: what the parser
        // then says about that line and the next is noise after the lexer's error.
        let unterminated = Set(
            lexDiagnostics.filter { $0.id == LexerMessage.unterminatedString.id }.map(\.location.line))
        let parserDiagnostics =
            unterminated.isEmpty
            ? parser.diagnostics
            : parser.diagnostics.filter {
                !unterminated.contains($0.location.line) && !unterminated.contains($0.location.line - 1)
            }
        return (
            statements, parser.topLevelStarts, (lexDiagnostics + parserDiagnostics).sorted { $0.location < $1.location }
        )
    }

    // MARK: Tokens

    var current: Token { tokens[min(index, tokens.count - 1)] }
    func peekKind(_ offset: Int = 1) -> Token.Kind { tokens[min(index + offset, tokens.count - 1)].kind }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    func isPunct(_ p: String) -> Bool { current.kind == .punct(p) }
    func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }

    mutating func skipNewlines() {
        while current.kind == .newline { advance() }
    }

    mutating func fail(_ message: ParserMessage, at token: Token? = nil) -> Abandon {
        let token = token ?? current
        diagnostics.append(Diagnostic(.error, message, at: token.location, length: token.length))
        return Abandon()
    }

    mutating func expectPunct(_ p: String, _ context: String) throws {
        guard isPunct(p) else { throw fail(.expectedPunctuation(p, context: context, found: describe(current))) }
        advance()
    }

    mutating func identifier(_ what: String) throws -> (String, Token) {
        guard case .identifier(let name) = current.kind else {
            throw fail(.expectedName(what: what, found: describe(current)))
        }
        let token = current
        advance()
        return (name, token)
    }

    /// After an element of a comma-separated list closed by `close`: skips
    /// newlines, then a `,` and the newlines after it, or stops before
    /// `close`, where the caller's loop ends; anything else is an error. The
    /// parameter, `@affectedBy`, argument, array and dictionary lists share it.
    mutating func commaOrClose(_ close: String, in list: ParserMessage.CommaList) throws {
        skipNewlines()
        if isPunct(",") {
            advance()
            skipNewlines()
        } else if !isPunct(close) {
            throw fail(.expectedCommaOrClose(close: close, list: list, found: describe(current)))
        }
    }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .identifier(let name): return "'\(name)'"
        case .keyword(let keyword): return "keyword '\(keyword.rawValue)'"
        case .integer(let value): return "'\(value)'"
        case .double(let value): return "'\(value)'"
        case .string: return "a string"
        case .dotName(let name): return "'.\(name)'"
        case .attribute(let name): return "'@\(name)'"
        case .punct(let p): return "'\(p)'"
        case .newline: return "end of line"
        case .eof: return "end of file"
        }
    }

    mutating func enter() throws {
        nesting += 1
        if nesting + baseNesting > maxNesting {
            diagnostics.append(
                Diagnostic(
                    .error, ParserMessage.nestingTooDeep(maxNesting: maxNesting), at: current.location,
                    length: current.length))
            throw TooDeep()
        }
    }

    mutating func leave() { nesting -= 1 }
}
