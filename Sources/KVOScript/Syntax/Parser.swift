import KVOCore

/// Recursive-descent parser from tokens to `Stmt`s. Nesting is bounded
/// (`maxNesting`) so no input can overflow the stack; after an error it resumes
/// at the next statement, so one run reports several independent errors.
struct Parser {
    static let defaultMaxNesting = 256

    private var tokens: [Token]
    private var index = 0
    /// The token index of the `[` that may open a dictionary literal: the
    /// value of a `userInfo:` argument (an NSError's, which the checker
    /// verifies). Any other dictionary literal is reported while parsing, with
    /// the other unsupported Swift, and parsed on.
    private var dictionaryAllowedAt: Int?
    private var nesting = 0
    /// False while parsing an `if`/`while` condition, where `{` starts the body.
    private var trailingClosureAllowed = true
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
            lexDiagnostics.filter { $0.message.hasPrefix("unterminated string") }.map(\.location.line))
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
            diagnostics.append(
                Diagnostic(
                    .error, "nesting deeper than \(maxNesting) levels; split the expression or block",
                    at: current.location, length: current.length))
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
                if depth == 0 {
                    advance()
                    return
                }
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
        case .identifier("import") where { if case .identifier = peekKind() { return true } else { return false } }():
            advance()
            let (module, _) = try identifier("a module name after 'import'")
            return .importModule(module, start.location)
        case .identifier(let word) where Self.modifiers.contains(word) && startsDeclaration(after: 1):
            return try parseModified()
        case .identifier(let word)
        where Self.unsupportedDeclarations[word] != nil
            && { if case .identifier = peekKind() { return true } else { return false } }():
            throw fail(Self.unsupportedDeclarations[word] ?? "", at: start)
        case .identifier("guard"):
            return try parseGuard()
        case .identifier("throw") where peekKind() != .newline && peekKind() != .punct("="):
            advance()
            return .throwError(try parseExpression(), start.location)
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
        case .attribute("objcMembers") where peekKind() == .keyword(.class) || startsDeclaration(after: 1):
            // Accepted and ignored: every property of a scenario class is KVO-visible (SPEC §11.1).
            advance()
            return try parseStatement()
        case .attribute("objc") where peekKind() == .keyword(.class) || peekKind() == .keyword(.func):
            advance()
            return try parseStatement()
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
            var binding: String?
            if isKeyword(.let) || isKeyword(.var) {
                advance()
                let (name, _) = try identifier("a name after 'if let'")
                try expectPunct("=", "after 'if let \(name)'")
                binding = name
            }
            let condition = try parseExpression(allowTrailingBlock: false)
            let then = try parseBlock("after the 'if' condition")
            branches.append(
                IfBranch(
                    binding: binding, condition: condition, body: then,
                    location: branchStart.location))
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
        try parseLabeledParameters().names
    }

    private mutating func parseLabeledParameters() throws -> (names: [String], labels: [String]) {
        try expectPunct("(", "to start the parameter list")
        var names: [String] = []
        var labels: [String] = []
        skipNewlines()
        while !isPunct(")") {
            var (name, _) = try identifierOrUnderscore()
            var label = name
            if case .identifier(let second) = current.kind {  // `label name`
                name = second
                advance()
            }
            labels.append(label == "_" ? "_" : label)
            label = ""
            if isPunct(":") {
                advance()
                _ = try parseType()
            }
            names.append(name)
            skipNewlines()
            if isPunct(",") {
                advance()
                skipNewlines()
            } else if !isPunct(")") {
                throw fail("expected ',' or ')' in the parameter list, found \(describe(current))")
            }
        }
        advance()
        return (names, labels)
    }

    private mutating func identifierOrUnderscore() throws -> (String, Token) {
        try identifier("a parameter name")
    }

    private mutating func parseFunction(isStatic: Bool) throws -> FunctionDecl {
        let start = current
        advance()  // func
        let (name, _) = try identifier("a function name after 'func'")
        if isPunct("<") { throw fail(Self.genericsMessage) }
        let (parameters, labels) = try parseLabeledParameters()
        if case .identifier("throws") = current.kind { advance() }
        if isPunct("->") {
            advance()
            _ = try parseType()
        }
        let body = try parseBlock("to start the body of '\(name)'")
        return FunctionDecl(
            name: name, parameters: parameters, labels: labels, body: body, isStatic: isStatic,
            location: start.location)
    }

    private mutating func parseType() throws -> TypeSyntax {
        try parseType(allowDictionary: true)
    }

    /// A property's type may not be a dictionary; a parameter's (observeValue's `change`) may.
    private mutating func parseType(allowDictionary allowDictionaryType: Bool) throws -> TypeSyntax {
        let start = current
        try enter()
        defer { leave() }
        var type: ValueType
        var swiftName: String
        var isDictionary = false
        if isPunct("[") {
            advance()
            let element = try parseType()
            if isPunct(":") {
                // `[NSKeyValueChangeKey: Any]`: observeValue's change parameter.
                advance()
                let value = try parseType()
                type = .any
                swiftName = "Dictionary<\(element.swiftName), \(value.swiftName)>"
                isDictionary = true
            } else {
                type = .array(element.type)
                swiftName = "Array<\(element.swiftName)>"
            }
            try expectPunct("]", "to close the array type")
        } else {
            let (name, _) = try identifier("a type")
            swiftName = name
            switch name {
            case "Int": type = .int
            case "Double", "Float", "CGFloat": type = .double
            case "Bool": type = .bool
            case "String": type = .string
            case "Any", "AnyObject", "NSObject", "NSKeyValueObservation", "UnsafeMutableRawPointer", "IndexSet":
                type = .any
            case "Set", "Array", "Optional":
                try expectPunct("<", "after '\(name)'")
                let element = try parseType()
                try expectPunct(">", "to close '\(name)<…>'")
                swiftName = "\(name)<\(element.swiftName)>"
                switch name {
                case "Set": type = .set(element.type)
                case "Array": type = .array(element.type)
                default: type = element.type
                }
            default:
                if isPunct("<") {
                    throw fail(
                        "generic types like '\(name)<…>' are not supported; the types are Int, Double, Bool, "
                            + "String, a class name, [T] and Set<T>")
                }
                type = .object(name)
            }
        }
        while isPunct("?") || isPunct("!") {
            advance()
            swiftName = "Optional<\(swiftName)>"
        }
        let length = max(1, current.location.column - start.location.column)
        var syntax = TypeSyntax(type: type, location: start.location, length: length)
        syntax.swiftName = swiftName
        if isDictionary && !allowDictionaryType {
            throw fail(
                "dictionary types are not supported; use a class with one property per key, or an array",
                at: start)
        }
        return syntax
    }

    // MARK: Classes

    private mutating func parseClass() throws -> ClassDecl {
        let start = current
        advance()
        let (name, _) = try identifier("a class name after 'class'")
        if isPunct("<") { throw fail(Self.genericsMessage) }
        var superclass: (String, SourceLocation)?
        if isPunct(":") {
            advance()
            let (superName, token) = try identifier("a superclass name")
            superclass = (superName, token.location)
            if isPunct(",") {
                throw fail(
                    "protocols are not supported: a class here has one superclass and no protocol list; "
                        + "'NSKeyValueObservingCustomization' is spelled with the static hooks "
                        + "'automaticallyNotifiesObservers(key)' and 'keyPathsForValuesAffecting(key)'")
            }
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
            if isPunct("}") {
                advance()
                break
            }
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
                    if isPunct(",") {
                        advance()
                        skipNewlines()
                    } else if !isPunct(")") {
                        throw fail("expected ',' or ')' in '@affectedBy(…)'")
                    }
                }
                advance()
            // `@objc`, `dynamic` are accepted and ignored: every property of a
            // scenario class behaves as `@objc dynamic` (SPEC §11.1).
            case "objc":
                if isPunct("(") {  // `@objc(validateName:error:)`: the selector name is not used
                    while !isPunct(")") && current.kind != .eof { advance() }
                    advance()
                }
            case "dynamic", "objcMembers":
                break
            default:
                throw fail(
                    "unknown attribute '@\(name)'\(Suggestion.didYouMean(name, in: ["manual", "affectedBy"]))",
                    at: token)
            }
            skipNewlines()
        }
        while case .identifier(let word) = current.kind, word == "dynamic" || Self.modifiers.contains(word) {
            advance()
            skipNewlines()
        }
        // `class func`
        if isKeyword(.class), peekKind() == .keyword(.func) || peekKind() == .keyword(.var) { advance() }
        let start = current
        switch current.kind {
        case .identifier("init"):
            advance()
            if isPunct("?") || isPunct("!") { advance() }
            let (parameters, labels) = try parseLabeledParameters()
            let body = try parseBlock("to start the body of 'init'")
            if decl.initializer != nil {
                throw fail("a class here has one 'init'; give the others' work to it", at: start)
            }
            decl.initializer = FunctionDecl(
                name: "init", parameters: parameters, labels: labels, body: body,
                isStatic: false, location: start.location)
        case .identifier("deinit"):
            throw fail("'deinit' is not supported; 'release(x)' ends an object's life, and its observers go with it")
        case .keyword(.func):
            if isManual || !affectedBy.isEmpty {
                throw fail("'@manual' and '@affectedBy' apply to properties, not methods", at: start)
            }
            decl.methods.append(try parseFunction(isStatic: false))
        case .keyword(.static):
            advance()
            guard isKeyword(.func) else { throw fail("expected 'func' after 'static'") }
            decl.methods.append(try parseFunction(isStatic: true))
        case .keyword(.var), .keyword(.let):
            advance()
            let (name, _) = try identifier("a property name")
            var property = PropertyDecl(
                name: name, type: nil, initial: nil, computed: nil, setter: nil,
                isManual: isManual, affectedBy: affectedBy, location: start.location)
            if isPunct(":") {
                advance()
                property.type = try parseType(allowDictionary: false)
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
            throw fail(
                "expected 'var', 'let', 'func' or 'static func' in the body of class '\(decl.name)', found \(describe(current))"
            )
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
        if case .identifier(let word) = current.kind, ["get", "set", "willSet", "didSet"].contains(word),
            peekKind() == .punct("{") || peekKind() == .punct("(")
        {
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
            } else if word == "willSet" || word == "didSet" {
                let implicit = word == "willSet" ? "newValue" : "oldValue"
                if isPunct("(") {
                    advance()
                    let (name, token) = try identifier("the value's name")
                    if name != implicit { throw fail("name the value '\(implicit)'", at: token) }
                    try expectPunct(")", "after the value's name")
                }
                let body = try parseBlock("after '\(word)'")
                if word == "willSet" { property.willSet = body } else { property.didSet = body }
            } else if word == "set" {
                if isPunct("(") {
                    advance()
                    let (name, token) = try identifier("the new value's name")
                    if name != "newValue" { throw fail("name the new value 'newValue'", at: token) }
                    try expectPunct(")", "after the new value's name")
                }
                property.setter = try parseBlock("after 'set'")
            } else {
                throw fail("expected 'get', 'set', 'willSet' or 'didSet', found '\(word)'")
            }
            skipNewlines()
        }
        try expectPunct("}", "to close the property's accessors")
    }

    // MARK: Expressions

    /// `allowTrailingBlock` is false where a `{` starts a body (if, for, while).
    private mutating func parseExpression(allowTrailingBlock: Bool = true) throws -> Expr {
        try enter()
        let saved = trailingClosureAllowed
        trailingClosureAllowed = allowTrailingBlock
        defer {
            leave()
            trailingClosureAllowed = saved
        }
        return try parseBinary(level: 0)
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["??"], ["..<", "..."], ["+", "-"], ["*", "/", "%"],
    ]
    /// The level of `??`, whose operands may be casts (`x as? Double ?? 0`).
    private static let nilCoalescingLevel = 3

    /// Operator runs up to this long become nested `.binary` nodes, which the
    /// compiler's fast paths know; longer ones one flat `.chain`.
    static let longChain = 16

    /// A run of operators of one level (`1 + 1 + … + 1`) is read in a loop
    /// and counts as no nesting however long it is: only brackets, blocks and
    /// unary operators nest.
    private mutating func parseBinary(level: Int) throws -> Expr {
        if level == Self.levels.count { return try parseUnary() }
        let first = level == Self.nilCoalescingLevel ? try parseCast() : try parseBinary(level: level + 1)
        var links: [ChainLink] = []
        while case .punct(let op) = current.kind, Self.levels[level].contains(op) {
            let token = current
            advance()
            skipNewlines()
            let rhs = level == Self.nilCoalescingLevel ? try parseCast() : try parseBinary(level: level + 1)
            links.append(ChainLink(op: op, operand: rhs, location: token.location))
            if level == 2 || level == Self.nilCoalescingLevel + 1 {
                if case .punct(let next) = current.kind, Self.levels[level].contains(next) {
                    throw fail("'\(next)' cannot follow '\(op)' without parentheses")
                }
            }
        }
        if links.count > Self.longChain, let last = links.last { return .chain(first, links, last.location) }
        return links.reduce(first) { lhs, link in .binary(link.op, lhs, link.operand, link.location) }
    }

    /// `x as? T`, `x as! T`, `x as T`: binds tighter than `??`, looser than ranges.
    private mutating func parseCast() throws -> Expr {
        var expr = try parseBinary(level: Self.nilCoalescingLevel + 1)
        while case .identifier("as") = current.kind {
            let token = current
            advance()
            var forced = false
            var conditional = false
            if isPunct("?") {
                conditional = true
                advance()
            } else if isPunct("!") {
                forced = true
                advance()
            }
            let type = try parseType()
            expr = .cast(expr, type, forced: forced, conditional: conditional, token.location)
        }
        if case .identifier("is") = current.kind {
            throw fail("'is' is not supported; use 'as?' with 'if let': 'if let a = x as? Account { … }'")
        }
        return expr
    }

    private mutating func parseUnary() throws -> Expr {
        // `try`, `try?`, `try!` before a call: errors arrive as exceptions either way.
        if case .identifier("try") = current.kind {
            switch peekKind() {
            case .identifier, .keyword(.self), .keyword(.super), .punct("?"), .punct("!"):
                advance()
                if isPunct("?") || isPunct("!") { advance() }
                return try parseUnary()
            default: break
            }
        }
        if isPunct("&") {
            // `&myContext`: a context is its own address.
            advance()
            return try parseUnary()
        }
        if isPunct("-") || isPunct("!") {
            let token = current
            guard case .punct(let op) = token.kind else { throw Abandon() }
            advance()
            try enter()
            defer { leave() }
            let operand = try parseUnary()
            if op == "-", case .literal(.int(let value), _) = operand { return .literal(.int(-value), token.location) }
            if op == "-", case .literal(.double(let value), _) = operand {
                return .literal(.double(-value), token.location)
            }
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
                var arguments = try parseArguments()
                if isPunct("{"), trailingClosureAllowed, case .member(_, "observe", _) = expr {
                    let closureToken = current
                    arguments.append(
                        Argument(
                            label: "changeHandler", value: try parseClosure(),
                            location: closureToken.location))
                }
                expr = .call(expr, arguments, token.location)
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
                if case .identifier(let type, let typeLocation, _) = expr,
                    ["NSKeyValueObservingOptions", "NSKeyValueChange", "NSKeyValueChangeKey"].contains(type)
                {
                    expr = .dotName(name, typeLocation)  // `NSKeyValueObservingOptions.new` is `.new`
                } else if expr.keywordIfAny == .super {
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
            } else if isPunct("!") {
                let token = current
                advance()
                expr = .forceUnwrap(expr, token.location)
            } else if isPunct("?") {
                advance()  // optional chaining: a message to nil gives nil
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
            if label == "userInfo", isPunct("[") { dictionaryAllowedAt = index }
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
            let dictionaryAllowed = dictionaryAllowedAt == index
            advance()
            skipNewlines()
            var elements: [Expr] = []
            if isPunct(":") {
                // `[:]`, the empty dictionary.
                if !dictionaryAllowed { _ = fail(Self.dictionaryMessage) }
                advance()
                skipNewlines()
                try expectPunct("]", "to close the empty dictionary '[:]'")
                return .dictionaryLiteral([], token.location)
            }
            while !isPunct("]") {
                elements.append(try parseExpression())
                skipNewlines()
                if isPunct(":"), elements.count == 1 {
                    if !dictionaryAllowed { _ = fail(Self.dictionaryMessage) }
                    return try parseDictionaryLiteral(firstKey: elements[0], at: token.location)
                }
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
            return try parseKeyPath()
        case .punct("#"):
            return try parsePoundKeyPath()
        case .punct("{") where trailingClosureAllowed:
            return try parseClosure()
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
                    let (lexed, lexDiagnostics) = Lexer.tokenize(
                        String(source), start: start, nesting: nesting + baseNesting + 1)
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

// MARK: Swift source

extension Parser {
    /// Declaration modifiers Swift source writes and a scenario ignores.
    static let modifiers: Set<String> = [
        "private", "fileprivate", "public", "internal", "open", "final", "override",
        "required", "convenience", "lazy", "weak", "unowned", "nonisolated",
    ]

    /// Swift declarations a scenario has no counterpart for, with what to write instead.
    static let unsupportedDeclarations: [String: String] = [
        "struct": "structs are not supported: KVO observes only NSObject subclasses; declare 'class Name: NSObject' "
            + "with '@objc dynamic var' properties",
        "protocol": "protocols are not supported: declare a superclass and override its methods",
        "enum": "enums are not supported; use Int or String properties, and the literals '.setting', '.insertion', "
            + "'.removal', '.replacement' for change kinds",
        "extension": "extensions are not supported; declare the members in the class itself",
        "typealias": "type aliases are not supported; write the type itself",
    ]

    /// The rest of `[key: value, …]` once its first key is read and `:` is next.
    private mutating func parseDictionaryLiteral(firstKey: Expr, at location: SourceLocation) throws -> Expr {
        var pairs: [(key: Expr, value: Expr)] = []
        var key = firstKey
        while true {
            try expectPunct(":", "between a key and its value in the dictionary literal")
            skipNewlines()
            pairs.append((key, try parseExpression()))
            skipNewlines()
            if isPunct(",") {
                advance()
                skipNewlines()
            } else if !isPunct("]") {
                throw fail("expected ',' or ']' in the dictionary literal, found \(describe(current))")
            }
            if isPunct("]") { break }
            key = try parseExpression()
            skipNewlines()
        }
        advance()
        return .dictionaryLiteral(pairs, location)
    }

    static let genericsMessage = "generics are not supported; declare the class or function for the types it uses"
    static let dictionaryMessage =
        "dictionary literals are not supported; use a class with one property per key, "
        + "or an array"

    /// Whether a declaration keyword (or another modifier) is `offset` tokens ahead.
    func startsDeclaration(after offset: Int) -> Bool {
        switch peekKind(offset) {
        case .keyword(.var), .keyword(.let), .keyword(.func), .keyword(.class), .keyword(.static): return true
        case .identifier(let word):
            return Self.modifiers.contains(word) || word == "init"
                || Self.unsupportedDeclarations[word] != nil
        case .attribute: return true
        default: return false
        }
    }

    /// `private var myContext = 0` declares a context named `myContext`, the
    /// address Swift passes as `&myContext`; other modifiers are dropped.
    mutating func parseModified() throws -> Stmt {
        var isPrivate = false
        while case .identifier(let word) = current.kind, Self.modifiers.contains(word) {
            if word == "private" || word == "fileprivate" { isPrivate = true }
            advance()
        }
        if isPrivate, isKeyword(.var) || isKeyword(.static),
            case .identifier(let name) = peekKind(isKeyword(.static) ? 2 : 1)
        {
            let start = current
            let save = index
            if isKeyword(.static) { advance() }
            advance()
            advance()
            if isPunct("=") {
                advance()
                let ends = peekKind() == .newline || peekKind() == .punct(";") || peekKind() == .eof
                if case .integer = current.kind, ends {
                    advance()
                    return .context(name, start.location)
                }
            }
            index = save
        }
        return try parseStatement()
    }

    /// `guard let x = value else { … }` or `guard condition else { … }`.
    mutating func parseGuard() throws -> Stmt {
        let start = current
        advance()
        var name: String?
        if isKeyword(.let) || isKeyword(.var) {
            advance()
            let (bound, _) = try identifier("a name after 'guard let'")
            try expectPunct("=", "after 'guard let \(bound)'")
            name = bound
        }
        let value = try parseExpression(allowTrailingBlock: false)
        guard isKeyword(.else) else {
            throw fail("expected 'else' after the 'guard' condition, found \(describe(current))")
        }
        advance()
        let otherwise = try parseBlock("after 'else'")
        return .guardLet(name: name, value: value, otherwise: otherwise, start.location)
    }

    /// `\.balance`, `\.account.balance`, `\.account?.balance`, `\Account.balance`.
    mutating func parseKeyPath() throws -> Expr {
        let start = current
        advance()  // backslash
        var literal = KeyPathLiteral(root: nil, components: [], throughOptional: false)
        if case .identifier(let root) = current.kind {
            literal.root = root
            advance()
        }
        while true {
            if case .dotName(let name) = current.kind {
                literal.components.append(name)
                advance()
            } else if isPunct(".") {
                advance()
                let (name, _) = try identifier("a property name in the key path")
                literal.components.append(name)
            } else if isPunct("?") || isPunct("!") {
                if isPunct("?") { literal.throughOptional = true }
                advance()
            } else {
                break
            }
        }
        if literal.components.isEmpty {
            throw fail("a key path names a property: '\\.balance' or '\\Account.balance'", at: start)
        }
        return .keyPath(literal, start.location)
    }

    /// `#keyPath(Account.owner.name)`: the string `"owner.name"`.
    mutating func parsePoundKeyPath() throws -> Expr {
        let start = current
        advance()
        guard case .identifier(let word) = current.kind, word == "keyPath" else {
            throw fail("only '#keyPath(…)' is supported after '#'", at: start)
        }
        advance()
        try expectPunct("(", "after '#keyPath'")
        var components: [String] = []
        repeat {
            if isPunct(".") { advance() }
            let (name, _) = try identifier("a property name in '#keyPath(…)'")
            components.append(name)
            if isPunct("?") { advance() }
        } while isPunct(".")
        try expectPunct(")", "to close '#keyPath('")
        if components.count > 1, components[0].first?.isUppercase == true { components.removeFirst() }
        return .literal(.string(components.joined(separator: ".")), start.location)
    }

    /// `{ obj, change in … }`, `{ (obj, change) in … }`, `{ [weak self] _, change in … }`.
    mutating func parseClosure() throws -> Expr {
        let open = current
        advance()
        try enter()
        defer { leave() }
        skipNewlines()
        if isPunct("[") {  // a capture list: nothing here is retained by anyone
            while !isPunct("]") && current.kind != .eof { advance() }
            advance()
        }
        var parameters: [String] = []
        let save = index
        let savedDiagnostics = diagnostics.count
        do {
            let parenthesized = isPunct("(")
            if parenthesized { advance() }
            while case .identifier(let name) = current.kind {
                parameters.append(name)
                advance()
                if isPunct(":") {
                    advance()
                    _ = try parseType()
                }
                if isPunct(",") { advance() } else { break }
            }
            if parenthesized { try expectPunct(")", "to close the closure's parameters") }
            if isPunct("->") {
                advance()
                _ = try parseType()
            }
            guard isKeyword(.in) else { throw Abandon() }
            advance()
        } catch is Abandon {
            index = save
            diagnostics.removeSubrange(savedDiagnostics...)
            parameters = []
        }
        var body: [Stmt] = []
        try parseStatements(into: &body, until: "}")
        guard isPunct("}") else { throw fail("expected '}' to close the closure opened here", at: open) }
        advance()
        return .closure(ClosureLiteral(parameters: parameters, body: body), open.location)
    }
}
