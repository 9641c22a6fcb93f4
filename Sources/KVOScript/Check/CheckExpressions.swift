import KVOCore

// MARK: Expressions

extension Checker {
    /// Checks an expression; returns its class when it is known statically
    /// (a variable initialised with `Account(…)`, `self`, a to-one property),
    /// so members can be checked by name.
    @discardableResult
    func checkExpr(_ expr: Expr) -> ScriptClass? {
        switch expr {
        case .literal:
            return nil
        case .interpolation(let parts, _):
            for case .expr(let inner) in parts { checkExpr(inner) }
            return nil
        case .identifier(let name, let location, let length):
            return checkIdentifier(name, location, length)
        case .selfRef(let location):
            guard let cls = selfClass else {
                error(.selfOutsideMethod, at: location, length: 4)
                return nil
            }
            return cls
        case .dotName(let name, let location):
            if DotLiterals.values[name] == nil {
                let suggestion =
                    Suggestion.closest(to: name, in: Array(DotLiterals.values.keys)).map {
                        "; did you mean '.\($0)'?"
                    } ?? ""
                error(.unknownLiteral(name, suggestion: suggestion), at: location, length: name.count + 1)
            }
            return nil
        case .arrayLiteral(let elements, _):
            for element in elements { checkExpr(element) }
            return nil
        case .dictionaryLiteral(_, let location):
            // Only an NSError's `userInfo` takes one (checkSwiftBuiltin); the
            // parser reports the others, except another call's `userInfo:`.
            error(.dictionaryLiteral, at: location)
            return nil
        case .member(let receiver, let name, let location):
            return checkMember(checkExpr(receiver), name, location)
        case .superMember(let name, let location):
            error(.superMemberNotCalled(name), at: location)
            return nil
        case .call(let callee, let arguments, let location):
            return checkCall(callee, arguments, location)
        case .subscripted(let base, let index, _):
            checkExpr(base)
            checkExpr(index)
            return nil
        case .unary(_, let operand, _):
            checkExpr(operand)
            return nil
        case .binary(let op, let lhs, let rhs, let location):
            checkExpr(lhs)
            checkExpr(rhs)
            checkOperator(op, at: location)
            return nil
        case .keyPath(_, let location):
            error(.keyPathOutsideObserve, at: location)
            return nil
        case .closure(_, let location):
            error(.closureOutsideObserve, at: location)
            return nil
        case .cast(let inner, let type, _, _, _):
            checkExpr(inner)
            return checkCastType(type)
        case .forceUnwrap(let inner, _):
            return checkExpr(inner)
        case .chain(let first, let links, _):
            // Flat: one operand after another, never one call per link.
            checkExpr(first)
            for link in links {
                checkExpr(link.operand)
                checkOperator(link.op, at: link.location)
            }
            return nil
        }
    }

    private func checkOperator(_ op: String, at location: SourceLocation) {
        switch op {
        case "&&", "||", "??":
            break
        case "..<", "...":
            error(.rangeOutsideFor, at: location, length: op.count)
        default:
            if !BinaryOperators.contains(op) { error(.unknownOperator(op), at: location, length: op.count) }
        }
    }

    private func checkIdentifier(_ name: String, _ location: SourceLocation, _ length: Int) -> ScriptClass? {
        if let binding = resolve(name, at: location) {
            switch binding {
            case .global(_, _, let type), .local(_, _, let type): return type
            case .context, .function, .classRef: return nil
            }
        }
        if let cls = selfClass {
            let isIvar = name.hasPrefix("_") && name.count > 1
            let key = isIvar ? String(name.dropFirst()) : name
            if let property = cls.info.property(named: key) { return propertyClass(property) }
            if cls.method(name) != nil {
                error(.methodNotCalled(name), at: location, length: length)
                return nil
            }
            if name == "observationInfo" { return nil }
        }
        if name == "error" {
            error(.errorOutsideCatch, at: location, length: length)
        } else {
            error(
                .notInScope(name, suggestion: Suggestion.didYouMean(name, in: namesInScope())), at: location,
                length: length)
        }
        return nil
    }

    /// `x.name`: checked by name when the class of `x` is known.
    private func checkMember(_ cls: ScriptClass?, _ name: String, _ location: SourceLocation) -> ScriptClass? {
        guard let cls else { return nil }
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        if let property = cls.info.property(named: key) { return propertyClass(property) }
        if name != "observationInfo" && name != "className" {
            let names = cls.info.properties.map(\.name) + ["observationInfo"]
            error(
                .noProperty(className: cls.info.name, key: key, suggestion: Suggestion.didYouMean(key, in: names)),
                at: location, length: name.count + 1)
        }
        return nil
    }
}
