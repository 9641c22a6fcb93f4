import KVOCore

extension Parser {
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
    mutating func parseStatements(into statements: inout [Stmt], until closer: String?) throws {
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

    mutating func endStatement() throws {
        if current.kind == .newline || isPunct(";") || isPunct("}") || current.kind == .eof { return }
        throw fail(.consecutiveStatements)
    }

    /// `let NAME =` (or `var NAME =`) after `if` or `guard`: the name, or nil
    /// for a plain condition.
    mutating func optionalBinding(after keyword: String) throws -> String? {
        guard isKeyword(.let) || isKeyword(.var) else { return nil }
        advance()
        let (name, _) = try identifier("a name after '\(keyword) let'")
        try expectPunct("=", "after '\(keyword) let \(name)'")
        return name
    }

    /// Skips to the start of the next statement after an error.
    mutating func synchronize() {
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

    mutating func parseBlock(_ context: String) throws -> [Stmt] {
        skipNewlines()
        guard isPunct("{") else { throw fail(.expectedBlock(context: context, found: describe(current))) }
        let open = current
        advance()
        try enter()
        defer { leave() }
        var body: [Stmt] = []
        try parseStatements(into: &body, until: "}")
        guard isPunct("}") else { throw fail(.unclosedBlock, at: open) }
        advance()
        return body
    }

    mutating func parseStatement() throws -> Stmt {
        let start = current
        // `struct Name`: a Swift declaration a scenario has no counterpart for.
        if case .identifier(let word) = current.kind, let declaration = ParserMessage.SwiftDeclaration(rawValue: word),
            case .identifier = peekKind()
        {
            throw fail(.unsupportedDeclaration(declaration), at: start)
        }
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
        case .identifier("guard"):
            return try parseGuard()
        case .identifier("throw") where peekKind() != .newline && peekKind() != .punct("="):
            advance()
            return .throwError(try parseExpression(), start.location)
        case .keyword(.func):
            return .function(try parseFunction(isStatic: false))
        case .keyword(.static):
            throw fail(.staticOutsideClass)
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
            if isLet && value == nil { throw fail(.letNeedsValue(name: name), at: start) }
            return .binding(isLet: isLet, name: name, type: type, value: value, start.location)
        case .keyword(.if):
            return try parseIf()
        case .keyword(.for):
            advance()
            let (name, _) = try identifier("a loop variable after 'for'")
            guard isKeyword(.in) else { throw fail(.expectedInAfterFor(name: name)) }
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
            guard isKeyword(.catch) else { throw fail(.expectedCatch) }
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
            throw fail(.attributeOutsideClass(found: describe(current)))
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
            let binding = try optionalBinding(after: "if")
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
}
