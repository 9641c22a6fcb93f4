import KVOCore

// MARK: Statements

extension Checker {
    func checkBlock(_ statements: [Stmt]) {
        scopes.append([:])
        defer { scopes.removeLast() }
        for statement in statements { checkStatement(statement, topLevel: false) }
    }

    func checkStatement(_ statement: Stmt, topLevel: Bool) {
        switch statement {
        case .expression(let expr):
            _ = checkExpr(expr)
            warnIfObservationUnused(expr)

        case .assign(.identifier("_", _, _), "=", let value, _):
            _ = checkExpr(value)

        case .binding(let isLet, let name, _, let value, let location):
            let type = value.flatMap { checkExpr($0) }
            resolutions.bindings[location] = declareLocal(name, isLet: isLet, type: type)

        case .assign(let target, let op, let value, let location):
            checkLValue(target)
            _ = checkExpr(value)
            if op != "=", !BinaryOperators.contains(String(op.dropLast())) {
                error(.unknownOperator(op), at: location)
            }

        case .ifElse(let branches, let otherwise, _):
            for branch in branches {
                let type = checkExpr(branch.condition)
                if let name = branch.binding {
                    scopes.append([:])
                    resolutions.bindings[branch.location] = declareLocal(name, isLet: true, type: type)
                    checkBlock(branch.body)
                    scopes.removeLast()
                } else {
                    checkBlock(branch.body)
                }
            }
            if let otherwise { checkBlock(otherwise) }

        case .forIn(let name, let sequence, let body, let location):
            if case .binary(let op, let lower, let upper, _) = sequence, op == "..<" || op == "..." {
                _ = checkExpr(lower)
                _ = checkExpr(upper)
            } else {
                _ = checkExpr(sequence)
            }
            scopes.append([:])
            resolutions.bindings[location] = declareLocal(name, isLet: true, type: nil)
            checkBlock(body)
            scopes.removeLast()

        case .whileLoop(let condition, let body, _):
            _ = checkExpr(condition)
            checkBlock(body)

        case .doCatch(let body, let caught, let handler, let location):
            if let (name, nameLocation) = caught, !ExceptionNames.catchable.contains(name) {
                error(
                    .unknownExceptionName(name, suggestion: Suggestion.didYouMean(name, in: ExceptionNames.catchable)),
                    at: nameLocation, length: name.count)
            }
            let caughtName = caught?.0 ?? ""
            catching[caughtName, default: 0] += 1
            checkBlock(body)
            catching[caughtName, default: 1] -= 1
            scopes.append([:])
            resolutions.bindings[location] = declareLocal("error", isLet: true, type: nil)
            checkBlock(handler)
            scopes.removeLast()

        case .returnValue(let value, let location):
            if function == nil {
                error(.returnOutsideFunction, at: location, length: 6)
            }
            if let value { _ = checkExpr(value) }

        case .release(let target, _):
            _ = checkExpr(target)

        case .function(let decl):
            if !topLevel { error(.declarationNotAtTopLevel(.function), at: decl.location) }
        case .classDecl(let decl):
            if !topLevel { error(.declarationNotAtTopLevel(.class), at: decl.location) }
        case .context(_, let location):
            if !topLevel { error(.declarationNotAtTopLevel(.context), at: location) }
        case .importModule(_, let location):
            if !topLevel { error(.declarationNotAtTopLevel(.import), at: location, length: 6) }
        case .guardLet(let name, let value, let otherwise, let location):
            let type = checkExpr(value)
            checkBlock(otherwise)
            if let name { resolutions.bindings[location] = declareLocal(name, isLet: true, type: type) }
        case .throwError(let value, _):
            _ = checkExpr(value)
        }
    }

    /// An assignment target: a variable, a property, an instance variable or
    /// an element of an array held in one of those.
    func checkLValue(_ target: Expr) {
        switch target {
        case .forceUnwrap(let inner, _):
            checkLValue(inner)
        case .identifier(let name, let location, let length):
            if let binding = resolve(name, at: location) {
                switch binding {
                case .global(_, let isLet, _), .local(_, let isLet, _):
                    if isLet {
                        error(.assignToLet(name), at: location, length: length)
                    }
                case .context, .function, .classRef:
                    error(.assignToName(name), at: location, length: length)
                }
                return
            }
            if let cls = selfClass {
                checkMemberAssignment(cls, name, location)
                return
            }
            error(
                .notInScope(name, suggestion: Suggestion.didYouMean(name, in: namesInScope())), at: location,
                length: length)
        case .member(let receiver, let name, let location):
            if let cls = checkExpr(receiver) { checkMemberAssignment(cls, name, location) }
        case .subscripted(let base, let index, _):
            _ = checkExpr(index)
            checkLValue(base)
        default:
            error(.assignToExpression, at: target.location)
        }
    }

    /// `o.prop = v` needs a property with a setter; `o._prop = v` a stored one.
    private func checkMemberAssignment(_ cls: ScriptClass, _ name: String, _ location: SourceLocation) {
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        guard let property = cls.info.property(named: key) else {
            let names = cls.info.properties.map(\.name)
            error(
                .noProperty(className: cls.info.name, key: key, suggestion: Suggestion.didYouMean(key, in: names)),
                at: location, length: name.count + 1)
            return
        }
        if !isIvar && property.isReadOnly {
            error(.assignToComputed(key), at: location, length: name.count + 1)
        }
    }
}
