import KVOCore

extension Parser {
    // MARK: Expressions

    /// `allowTrailingBlock` is false where a `{` starts a body (if, for, while).
    mutating func parseExpression(allowTrailingBlock: Bool = true) throws -> Expr {
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
                    throw fail(.operatorsNeedParentheses(next: next, after: op))
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
            throw fail(.isOperator)
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
                default: throw fail(.expectedMemberName(found: describe(current)))
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
            try commaOrClose(")", in: .arguments)
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
            guard isPunct(".") else { throw fail(.expectedDotAfterSuper) }
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
                if !dictionaryAllowed { _ = fail(.dictionaryLiteral) }
                advance()
                skipNewlines()
                try expectPunct("]", "to close the empty dictionary '[:]'")
                return .dictionaryLiteral([], token.location)
            }
            while !isPunct("]") {
                elements.append(try parseExpression())
                skipNewlines()
                if isPunct(":"), elements.count == 1 {
                    if !dictionaryAllowed { _ = fail(.dictionaryLiteral) }
                    return try parseDictionaryLiteral(firstKey: elements[0], at: token.location)
                }
                try commaOrClose("]", in: .array)
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
            throw fail(.expectedExpressionFoundKeyword(keyword.rawValue))
        default:
            throw fail(.expectedExpression(found: describe(token)))
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
                        _ = inner.fail(.unexpectedInInterpolation(found: inner.describe(inner.current)))
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
