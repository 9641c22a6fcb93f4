import KVOCore

// MARK: Swift source

extension Parser {
    /// Declaration modifiers Swift source writes and a scenario ignores.
    static let modifiers: Set<String> = [
        "private", "fileprivate", "public", "internal", "open", "final", "override",
        "required", "convenience", "lazy", "weak", "unowned", "nonisolated",
    ]

    /// The rest of `[key: value, …]` once its first key is read and `:` is next.
    mutating func parseDictionaryLiteral(firstKey: Expr, at location: SourceLocation) throws -> Expr {
        var pairs: [(key: Expr, value: Expr)] = []
        var key = firstKey
        while true {
            try expectPunct(":", "between a key and its value in the dictionary literal")
            skipNewlines()
            pairs.append((key, try parseExpression()))
            try commaOrClose("]", in: .dictionary)
            if isPunct("]") { break }
            key = try parseExpression()
            skipNewlines()
        }
        advance()
        return .dictionaryLiteral(pairs, location)
    }

    /// Whether a declaration keyword (or another modifier) is `offset` tokens ahead.
    func startsDeclaration(after offset: Int) -> Bool {
        switch peekKind(offset) {
        case .keyword(.var), .keyword(.let), .keyword(.func), .keyword(.class), .keyword(.static): return true
        case .identifier(let word):
            return Self.modifiers.contains(word) || word == "init"
                || ParserMessage.SwiftDeclaration(rawValue: word) != nil
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
        let name = try optionalBinding(after: "guard")
        let value = try parseExpression(allowTrailingBlock: false)
        guard isKeyword(.else) else {
            throw fail(.expectedElseAfterGuard(found: describe(current)))
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
            throw fail(.keyPathNeedsProperty, at: start)
        }
        return .keyPath(literal, start.location)
    }

    /// `#keyPath(Account.owner.name)`: the string `"owner.name"`.
    mutating func parsePoundKeyPath() throws -> Expr {
        let start = current
        advance()
        guard case .identifier(let word) = current.kind, word == "keyPath" else {
            throw fail(.onlyKeyPathDirective, at: start)
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
        guard isPunct("}") else { throw fail(.unclosedClosure, at: open) }
        advance()
        return .closure(ClosureLiteral(parameters: parameters, body: body), open.location)
    }
}
