import KVOCore

/// Recursive-descent parser from tokens to `Stmt`s. Nesting is bounded
/// (`maxNesting`) so no input can overflow the stack; after an error it resumes
/// at the next statement, so one run reports several independent errors.
struct Parser {
    static let defaultMaxNesting = 256

    private var tokens: [Token]
    private var index = 0
    private var nesting = 0
    private let maxNesting: Int
    private let baseNesting: Int
    private(set) var diagnostics: [Diagnostic] = []
    /// Where each top-level statement begins (its first token), in order:
    /// the REPL cuts an entry into statements with them.
    private(set) var topLevelStarts: [SourceLocation] = []

    /// Thrown to abandon the current statement.
    private struct Abandon: Error {}
    /// Thrown when nesting exceeds the limit: parsing stops.
    private struct TooDeep: Error {}

    init(tokens: [Token], maxNesting: Int = Parser.defaultMaxNesting, baseNesting: Int = 0) {
        self.tokens = tokens
        self.maxNesting = maxNesting
        self.baseNesting = baseNesting
    }

    /// Parses a whole scenario (or one REPL entry).
    static func parse(_ source: String, maxNesting: Int = Parser.defaultMaxNesting) -> (statements: [Stmt], diagnostics: [Diagnostic]) {
        let parsed = parseWithStarts(source, maxNesting: maxNesting)
        return (parsed.statements, parsed.diagnostics)
    }

    /// `parse`, with where each top-level statement begins.
    static func parseWithStarts(_ source: String, maxNesting: Int = Parser.defaultMaxNesting)
        -> (statements: [Stmt], starts: [SourceLocation], diagnostics: [Diagnostic]) {
        let (tokens, lexDiagnostics) = Lexer.tokenize(source)
        var parser = Parser(tokens: tokens, maxNesting: maxNesting)
        let statements = parser.parseProgram()
        // An unterminated string leaves its brackets open: what the parser
        // then says about that line and the next is noise after the lexer's error.
        let unterminated = Set(lexDiagnostics.filter { $0.message.hasPrefix("unterminated string") }.map(\.location.line))
        let parserDiagnostics = unterminated.isEmpty ? parser.diagnostics : parser.diagnostics.filter {
            !unterminated.contains($0.location.line) && !unterminated.contains($0.location.line - 1)
        }
        return (statements, parser.topLevelStarts, (lexDiagnostics + parserDiagnostics).sorted { $0.location < $1.location })
    }

    // MARK: Tokens

    private var current: Token { tokens[min(index, tokens.count - 1)] }
    private func peekKind(_ offset: Int = 1) -> Token.Kind { tokens[min(index + offset, tokens.count - 1)].kind }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private func isPunct(_ p: String) -> Bool { current.kind == .punct(p) }
    private func isKeyword(_ k: Keyword) -> Bool { current.kind == .keyword(k) }

    private mutating func skipNewlines() {
        while current.kind == .newline { advance() }
    }

    private mutating func fail(_ message: String, at token: Token? = nil) -> Abandon {
        let token = token ?? current
        diagnostics.append(Diagnostic(.error, message, at: token.location, length: token.length))
        return Abandon()
    }

    private mutating func expectPunct(_ p: String, _ context: String) throws {
        guard isPunct(p) else { throw fail("expected '\(p)' \(context), found \(describe(current))") }
        advance()
    }

    private mutating func identifier(_ what: String) throws -> (String, Token) {
        guard case .identifier(let name) = current.kind else {
            throw fail("expected \(what), found \(describe(current))")
        }
        let token = current
        advance()
        return (name, token)
    }

    private func describe(_ token: Token) -> String {
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

    private mutating func enter() throws {
        nesting += 1
        if nesting + baseNesting > maxNesting {
            diagnostics.append(Diagnostic(.error, "nesting deeper than \(maxNesting) levels; split the expression or block", at: current.location, length: current.length))
            throw TooDeep()
        }
    }

    private mutating func leave() { nesting -= 1 }

    // MARK: Statements

    mutating func parseProgram() -> [Stmt] {
        var statements: [Stmt] = []
        do {
            try parseStatements(into: &statements, until: nil)
        } catch {
            // TooDeep: the diagnostic is recorded; nothing more can be trusted.
        }
        return statements
    }

    /// Parses statements up to `}` (when `until` is "}") or the end of file.
    private mutating func parseStatements(into statements: inout [Stmt], until closer: String?) throws {
        while true {
            while current.kind == .newline || isPunct(";") { advance() }
            if current.kind == .eof { return }
            if let closer, isPunct(closer) { return }
            let start = index
            do {
                statements.append(try parseStatement())
                if closer == nil && nesting == 0 { topLevelStarts.append(tokens[start].location) }
                try endStatement()
            } catch is Abandon {
                synchronize()
                // A stray `}` stops synchronising without being consumed: always move on.
                if index == start { advance() }
            }
        }
    }

    private mutating func endStatement() throws {
        if current.kind == .newline || isPunct(";") || isPunct("}") || current.kind == .eof { return }
        throw fail("consecutive statements on a line must be separated by ';'")
    }

    /// Skips to the start of the next statement after an error.
    private mutating func synchronize() {
        var depth = 0
        while current.kind != .eof {
            switch current.kind {
            case .punct("("), .punct("["), .punct("{"): depth += 1
            case .punct(")"), .punct("]"): depth = max(0, depth - 1)
            case .punct("}"):
                if depth == 0 { return }
                depth -= 1
            case .newline, .punct(";"):
                if depth == 0 { advance(); return }
            default: break
            }
            advance()
        }
    }

    private mutating func parseBlock(_ context: String) throws -> [Stmt] {
        skipNewlines()
        guard isPunct("{") else { throw fail("expected '{' \(context), found \(describe(current))") }
        let open = current
        advance()
        try enter()
        defer { leave() }
        var body: [Stmt] = []
        try parseStatements(into: &body, until: "}")
        guard isPunct("}") else { throw fail("expected '}' to close the block opened here", at: open) }
        advance()
        return body
    }

    private mutating func parseStatement() throws -> Stmt {
        let start = current
        switch current.kind {
        case .identifier("context") where { if case .identifier = peekKind() { return true } else { return false } }():
            advance()
            let (name, _) = try identifier("a context name after 'context'")
            return .context(name, start.location)
        case .keyword(.class):
            return .classDecl(try parseClass())
        case .keyword(.func):
            return .function(try parseFunction(isStatic: false))
        case .keyword(.static):
            throw fail("'static' is only allowed on methods inside a class")
        case .keyword(.let), .keyword(.var):
            let isLet = isKeyword(.let)
            advance()
            let (name, _) = try identifier("a variable name")
            var type: TypeSyntax?
            if isPunct(":") {
                advance()
                type = try parseType()
            }
            var value: Expr?
            if isPunct("=") {
                advance()
                skipNewlines()
                value = try parseExpression()
            }
            if isLet && value == nil { throw fail("'let \(name)' needs a value: 'let \(name) = …'", at: start) }
            return .binding(isLet: isLet, name: name, type: type, value: value, start.location)
        case .keyword(.if):
            return try parseIf()
        case .keyword(.for):
            advance()
            let (name, _) = try identifier("a loop variable after 'for'")
            guard isKeyword(.in) else { throw fail("expected 'in' after 'for \(name)'") }
            advance()
            let sequence = try parseExpression(allowTrailingBlock: false)
            let body = try parseBlock("to start the loop body")
            return .forIn(name: name, sequence: sequence, body: body, start.location)
        case .keyword(.while):
            advance()
            let condition = try parseExpression(allowTrailingBlock: false)
            let body = try parseBlock("to start the loop body")
            return .whileLoop(condition: condition, body: body, start.location)
        case .keyword(.do):
            advance()
            let body = try parseBlock("after 'do'")
            skipNewlines()
            guard isKeyword(.catch) else { throw fail("expected 'catch' after the 'do' block") }
            advance()
            var name: (String, SourceLocation)?
            if case .identifier(let exceptionName) = current.kind {
                name = (exceptionName, current.location)
                advance()
            }
            let handler = try parseBlock("after 'catch'")
            return .doCatch(body: body, exceptionName: name, handler: handler, start.location)
        case .keyword(.return):
            advance()
            if current.kind == .newline || isPunct(";") || isPunct("}") || current.kind == .eof {
                return .returnValue(nil, start.location)
            }
            return .returnValue(try parseExpression(), start.location)
        case .keyword(.release):
            advance()
            try expectPunct("(", "after 'release'")
            let target = try parseExpression()
            try expectPunct(")", "to close 'release('")
            return .release(target, start.location)
        case .attribute:
            throw fail("attributes like \(describe(current)) are only allowed on properties inside a class")
        default:
            let expr = try parseExpression()
            if case .punct(let op) = current.kind, ["=", "+=", "-=", "*=", "/=", "%="].contains(op) {
                let opToken = current
                advance()
                skipNewlines()
                let value = try parseExpression()
                return .assign(target: expr, op: op, value: value, opToken.location)
            }
            return .expression(expr)
        }
    }

    /// `if … else if … else …` as one flat list of branches, read in a loop:
    /// a 300-branch chain is one level of nesting, not 300.
    private mutating func parseIf() throws -> Stmt {
        let start = current
        try enter()
        defer { leave() }
        var branches: [IfBranch] = []
        var otherwise: [Stmt]?
        while true {
            let branchStart = current
            advance()  // if
            let condition = try parseExpression(allowTrailingBlock: false)
            let then = try parseBlock("after the 'if' condition")
            branches.append(IfBranch(condition: condition, body: then, location: branchStart.location))
            let save = index
            skipNewlines()
            guard isKeyword(.else) else {
                index = save
                break
            }
            advance()
            if !isKeyword(.if) {
                otherwise = try parseBlock("after 'else'")
                break
            }
        }
        return .ifElse(branches: branches, else: otherwise, start.location)
    }

    private mutating func parseParameters() throws -> [String] {
        try expectPunct("(", "to start the parameter list")
        var names: [String] = []
        skipNewlines()
        while !isPunct(")") {
            var (name, _) = try identifierOrUnderscore()
            if case .identifier(let second) = current.kind {  // `label name`
                name = second
                advance()
            }
            if isPunct(":") {
                advance()
                _ = try parseType()
            }
            names.append(name)
            skipNewlines()
            if isPunct(",") { advance(); skipNewlines() } else if !isPunct(")") {
                throw fail("expected ',' or ')' in the parameter list, found \(describe(current))")
            }
        }
        advance()
        return names
    }

    private mutating func identifierOrUnderscore() throws -> (String, Token) {
        try identifier("a parameter name")
    }

    private mutating func parseFunction(isStatic: Bool) throws -> FunctionDecl {
        let start = current
        advance()  // func
        let (name, _) = try identifier("a function name after 'func'")
        let parameters = try parseParameters()
        if isPunct("->") {
            advance()
            _ = try parseType()
        }
        let body = try parseBlock("to start the body of '\(name)'")
        return FunctionDecl(name: name, parameters: parameters, body: body, isStatic: isStatic, location: start.location)
    }

    private mutating func parseType() throws -> TypeSyntax {
        let start = current
        try enter()
        defer { leave() }
        var type: ValueType
        if isPunct("[") {
            advance()
            let element = try parseType()
            try expectPunct("]", "to close the array type")
            type = .array(element.type)
        } else {
            let (name, _) = try identifier("a type")
            switch name {
            case "Int": type = .int
            case "Double", "Float", "CGFloat": type = .double
            case "Bool": type = .bool
            case "String": type = .string
            case "Any", "AnyObject", "NSObject": type = .any
            case "Set":
                try expectPunct("<", "after 'Set'")
                let element = try parseType()
                try expectPunct(">", "to close 'Set<…>'")
                type = .set(element.type)
            default: type = .object(name)
            }
        }
        while isPunct("?") || isPunct("!") { advance() }
        return TypeSyntax(type: type, location: start.location, length: max(1, current.location.column - start.location.column))
    }

    // MARK: Classes

    private mutating func parseClass() throws -> ClassDecl {
        let start = current
        advance()
        let (name, _) = try identifier("a class name after 'class'")
        var superclass: (String, SourceLocation)?
        if isPunct(":") {
            advance()
            let (superName, token) = try identifier("a superclass name")
            superclass = (superName, token.location)
        }
        skipNewlines()
        guard isPunct("{") else { throw fail("expected '{' to start the body of class '\(name)'") }
        let open = current
        advance()
        try enter()
        defer { leave() }
        var decl = ClassDecl(name: name, superclass: superclass, properties: [], methods: [], location: start.location)
        while true {
            while current.kind == .newline || isPunct(";") { advance() }
            if isPunct("}") { advance(); break }
            if current.kind == .eof { throw fail("expected '}' to close class '\(name)'", at: open) }
            let start = index
            do {
                try parseMember(into: &decl)
                try endStatement()
            } catch is Abandon {
                synchronize()
                if index == start { advance() }
            }
        }
        return decl
    }

    private mutating func parseMember(into decl: inout ClassDecl) throws {
        var isManual = false
        var affectedBy: [(String, SourceLocation)] = []
        while case .attribute(let name) = current.kind {
            let token = current
            advance()
            switch name {
            case "manual":
                isManual = true
            case "affectedBy":
                try expectPunct("(", "after '@affectedBy'")
                skipNewlines()
                while !isPunct(")") {
                    let pathStart = current
                    var path = ""
                    if case .string(let parts) = current.kind, parts.count == 1, case .text(let text) = parts[0] {
                        path = text
                        advance()
                    } else {
                        let (first, _) = try identifier("a key path in '@affectedBy'")
                        path = first
                        while isPunct(".") {
                            advance()
                            let (next, _) = try identifier("a key after '.'")
                            path += "." + next
                        }
                    }
                    affectedBy.append((path, pathStart.location))
                    skipNewlines()
                    if isPunct(",") { advance(); skipNewlines() } else if !isPunct(")") {
                        throw fail("expected ',' or ')' in '@affectedBy(…)'")
                    }
                }
                advance()
            case "objc", "dynamic", "objcMembers":
                break  // Swift's spellings of what every property here already is
            default:
                throw fail("unknown attribute '@\(name)'\(Suggestion.didYouMean(name, in: ["manual", "affectedBy"]))", at: token)
            }
            skipNewlines()
        }
        if case .identifier("dynamic") = current.kind { advance() }
        let start = current
        switch current.kind {
        case .keyword(.func):
            if isManual || !affectedBy.isEmpty { throw fail("'@manual' and '@affectedBy' apply to properties, not methods", at: start) }
            decl.methods.append(try parseFunction(isStatic: false))
        case .keyword(.static):
            advance()
            guard isKeyword(.func) else { throw fail("expected 'func' after 'static'") }
            decl.methods.append(try parseFunction(isStatic: true))
        case .keyword(.var), .keyword(.let):
            advance()
            let (name, _) = try identifier("a property name")
            var property = PropertyDecl(name: name, type: nil, initial: nil, computed: nil, setter: nil,
                                        isManual: isManual, affectedBy: affectedBy, location: start.location)
            if isPunct(":") {
                advance()
                property.type = try parseType()
            }
            if isPunct("=") {
                advance()
                skipNewlines()
                property.initial = try parseExpression(allowTrailingBlock: false)
            }
            if isPunct("{") {
                try parseAccessors(into: &property)
            }
            if property.type == nil && property.initial == nil && property.computed == nil {
                throw fail("property '\(name)' needs a type ('var \(name): Double') or a value", at: start)
            }
            decl.properties.append(property)
        default:
            throw fail("expected 'var', 'let', 'func' or 'static func' in the body of class '\(decl.name)', found \(describe(current))")
        }
    }

    /// `{ expr }` (computed), `{ get { expr } }`, `{ set { … } }` or both.
    private mutating func parseAccessors(into property: inout PropertyDecl) throws {
        let open = current
        advance()
        try enter()
        defer { leave() }
        skipNewlines()
        let isAccessorList: Bool
        if case .identifier(let word) = current.kind, word == "get" || word == "set",
           peekKind() == .punct("{") || peekKind() == .punct("(") {
            isAccessorList = true
        } else {
            isAccessorList = false
        }
        if !isAccessorList {
            if property.initial != nil { throw fail("a property with a value cannot also be computed", at: open) }
            if isKeyword(.return) { advance() }
            property.computed = try parseExpression()
            skipNewlines()
            try expectPunct("}", "to close the computed property")
            return
        }
        while case .identifier(let word) = current.kind {
            advance()
            if word == "get" {
                try expectPunct("{", "after 'get'")
                skipNewlines()
                if isKeyword(.return) { advance() }
                property.computed = try parseExpression()
                skipNewlines()
                try expectPunct("}", "to close 'get'")
            } else if word == "set" {
                if isPunct("(") {
                    advance()
                    let (name, token) = try identifier("the new value's name")
                    if name != "newValue" { throw fail("name the new value 'newValue'", at: token) }
                    try expectPunct(")", "after the new value's name")
                }
                property.setter = try parseBlock("after 'set'")
            } else {
                throw fail("expected 'get' or 'set', found '\(word)'")
            }
            skipNewlines()
        }
        try expectPunct("}", "to close the property's accessors")
    }

    // MARK: Expressions

    /// `allowTrailingBlock` is false where a `{` starts a body (if, for, while).
    private mutating func parseExpression(allowTrailingBlock: Bool = true) throws -> Expr {
        try enter()
        defer { leave() }
        return try parseBinary(level: 0)
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["..<", "..."], ["+", "-"], ["*", "/", "%"],
    ]

    /// Operator runs up to this long become nested `.binary` nodes, which the
    /// compiler's fast paths know; longer ones one flat `.chain`.
    static let longChain = 16

    /// A run of operators of one level (`1 + 1 + … + 1`) is read in a loop
    /// and counts as no nesting however long it is: only brackets, blocks and
    /// unary operators nest.
    private mutating func parseBinary(level: Int) throws -> Expr {
        if level == Self.levels.count { return try parseUnary() }
        let first = try parseBinary(level: level + 1)
        var links: [ChainLink] = []
        while case .punct(let op) = current.kind, Self.levels[level].contains(op) {
            let token = current
            advance()
            skipNewlines()
            let rhs = try parseBinary(level: level + 1)
            links.append(ChainLink(op: op, operand: rhs, location: token.location))
            if level == 2 || level == 3 {
                if case .punct(let next) = current.kind, Self.levels[level].contains(next) {
                    throw fail("'\(next)' cannot follow '\(op)' without parentheses")
                }
            }
        }
        if links.count > Self.longChain, let last = links.last { return .chain(first, links, last.location) }
        return links.reduce(first) { lhs, link in .binary(link.op, lhs, link.operand, link.location) }
    }

    private mutating func parseUnary() throws -> Expr {
        if isPunct("-") || isPunct("!") {
            let token = current
            guard case .punct(let op) = token.kind else { throw Abandon() }
            advance()
            try enter()
            defer { leave() }
            let operand = try parseUnary()
            if op == "-", case .literal(.int(let value), _) = operand { return .literal(.int(-value), token.location) }
            if op == "-", case .literal(.double(let value), _) = operand { return .literal(.double(-value), token.location) }
            return .unary(op, operand, token.location)
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws -> Expr {
        var expr = try parsePrimary()
        var depth = 0
        defer { nesting -= depth }
        while true {
            if isPunct("(") {
                let token = current
                advance()
                expr = .call(expr, try parseArguments(), token.location)
            } else if isPunct(".") {
                let token = current
                advance()
                let name: String
                switch current.kind {
                case .identifier(let n): name = n
                case .keyword(let k): name = k.rawValue
                case .integer(let n): name = String(n)
                default: throw fail("expected a member name after '.', found \(describe(current))")
                }
                advance()
                if expr.keywordIfAny == .super {
                    expr = .superMember(name, token.location)
                } else {
                    expr = .member(expr, name, token.location)
                }
            } else if isPunct("[") {
                let token = current
                advance()
                skipNewlines()
                let subscriptExpr = try parseExpression()
                skipNewlines()
                try expectPunct("]", "to close the subscript")
                expr = .subscripted(expr, subscriptExpr, token.location)
            } else if isPunct("?") || isPunct("!") {
                advance()  // optional chaining and force unwrapping read the same here
                continue
            } else {
                return expr
            }
            depth += 1
            try enter()
        }
    }

    private mutating func parseArguments() throws -> [Argument] {
        var arguments: [Argument] = []
        skipNewlines()
        while !isPunct(")") {
            let start = current
            var label: String?
            if peekKind() == .punct(":") {
                switch current.kind {
                case .identifier(let name): label = name
                case .keyword(let keyword): label = keyword.rawValue
                default: break
                }
                if label != nil {
                    advance()
                    advance()
                    skipNewlines()
                }
            }
            let value = try parseExpression()
            arguments.append(Argument(label: label, value: value, location: start.location))
            skipNewlines()
            if isPunct(",") {
                advance()
                skipNewlines()
            } else if !isPunct(")") {
                throw fail("expected ',' or ')' in the argument list, found \(describe(current))")
            }
        }
        advance()
        return arguments
    }

    private mutating func parsePrimary() throws -> Expr {
        let token = current
        switch token.kind {
        case .integer(let value):
            advance()
            return .literal(.int(value), token.location)
        case .double(let value):
            advance()
            return .literal(.double(value), token.location)
        case .string(let parts):
            advance()
            return try stringExpr(parts, token.location)
        case .keyword(.true):
            advance()
            return .literal(.bool(true), token.location)
        case .keyword(.false):
            advance()
            return .literal(.bool(false), token.location)
        case .keyword(.nil):
            advance()
            return .literal(.null, token.location)
        case .keyword(.self):
            advance()
            return .selfRef(token.location)
        case .keyword(.super):
            advance()
            guard isPunct(".") else { throw fail("expected '.' after 'super'") }
            return .identifier("super", token.location, length: 5)
        case .identifier(let name):
            advance()
            return .identifier(name, token.location, length: token.length)
        case .dotName(let name):
            advance()
            return .dotName(name, token.location)
        case .punct("("):
            advance()
            skipNewlines()
            let inner = try parseExpression()
            skipNewlines()
            try expectPunct(")", "to close '('")
            return inner
        case .punct("["):
            advance()
            skipNewlines()
            var elements: [Expr] = []
            while !isPunct("]") {
                elements.append(try parseExpression())
                skipNewlines()
                if isPunct(",") {
                    advance()
                    skipNewlines()
                } else if !isPunct("]") {
                    throw fail("expected ',' or ']' in the array literal, found \(describe(current))")
                }
            }
            advance()
            return .arrayLiteral(elements, token.location)
        case .punct("\\"):
            throw fail("key-path literals ('\\.name') and observe(_:options:changeHandler:) are not supported yet; use addObserver(_:forKeyPath:options:context:)")
        case .keyword(let keyword):
            throw fail("expected an expression, found keyword '\(keyword.rawValue)'")
        default:
            throw fail("expected an expression, found \(describe(token))")
        }
    }

    private mutating func stringExpr(_ parts: [StringPart], _ location: SourceLocation) throws -> Expr {
        if parts.count == 1, case .text(let text) = parts[0] { return .literal(.string(text), location) }
        var result: [InterpolationPart] = []
        for part in parts {
            switch part {
            case .text(let text):
                result.append(.text(text))
            case .interpolation(let source, let start, var tokens):
                if tokens.isEmpty {
                    // Only an interpolation made by hand (a test) has no tokens yet.
                    let (lexed, lexDiagnostics) = Lexer.tokenize(String(source), start: start, nesting: nesting + baseNesting + 1)
                    diagnostics += lexDiagnostics
                    tokens = lexed
                }
                var inner = Parser(tokens: tokens, maxNesting: maxNesting, baseNesting: nesting + baseNesting + 1)
                do {
                    let expr = try inner.parseExpression()
                    if inner.current.kind != .eof {
                        _ = inner.fail("unexpected \(inner.describe(inner.current)) in the interpolation")
                    }
                    diagnostics += inner.diagnostics
                    result.append(.expr(expr))
                } catch {
                    diagnostics += inner.diagnostics
                    if error is TooDeep { throw error }
                    throw Abandon()
                }
            }
        }
        return .interpolation(result, location)
    }
}

private extension Expr {
    var keywordIfAny: Keyword? {
        if case .identifier("super", _, _) = self { return .super }
        return nil
    }
}
