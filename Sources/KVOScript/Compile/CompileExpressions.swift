import KVOCore

extension Compiler {
    /// `nameHint` names the object a top-level `let NAME = Class(…)` creates.
    func compileExpr(_ expr: Expr, nameHint: String? = nil) -> Typed {
        switch expr {
        case .literal(let value, _):
            return Typed({ _ in value })

        case .interpolation(let parts, _):
            let text = InterpolatedText(parts) { compileUnboxedOrBoxed($0) }
            return Typed({ machine in .string(try text.build(machine)) })

        case .identifier(let name, let location, let length):
            return compileIdentifier(name, location, length)

        case .selfRef:
            guard let cls = function?.cls, function?.isStatic == false else {
                return Typed(Self.unreachable("'self' outside a method"))
            }
            return Typed({ machine in try machine.selfValue() }, cls)

        case .dotName(let name, _):
            guard let value = DotLiterals.values[name] else { return Typed(Self.unreachable("literal '.\(name)'")) }
            return Typed({ _ in value })

        case .dictionaryLiteral:
            // Checked: only an NSError's userInfo, which compileSwiftBuiltin reads itself.
            return Typed(Self.unreachable("dictionary literal"))

        case .arrayLiteral(let elements, _):
            let evals = elements.map { compileExpr($0).eval }
            if let constant = constantElements(elements) {
                // `[.new, .old]`: built once. Arrays are values, so a program
                // that changes its copy changes only that.
                let value = Value.array(constant)
                return Typed({ _ in value })
            }
            return Typed({ machine in
                var packed = PackedArray()
                packed.reserveCapacity(evals.count)
                for eval in evals { packed.append(try eval(machine)) }
                return .array(packed)
            })

        case .member(let receiver, let name, let location):
            return compileMember(compileExpr(receiver), name, location)

        case .superMember(let name, _):
            return Typed(Self.unreachable("'super.\(name)' not called"))

        case .call(let callee, let arguments, let location):
            return compileCall(callee, arguments, location, nameHint: nameHint)

        case .subscripted(let base, let index, _):
            let baseEval = compileExpr(base).eval
            let indexEval = compileExpr(index).eval
            return Typed({ machine in try Self.element(of: try baseEval(machine), at: try indexEval(machine), machine) }
            )

        case .unary(let op, let operand, _):
            let eval = compileExpr(operand).eval
            if op == "!" { return Typed({ machine in .bool(!(try Operators.truth(try eval(machine)))) }) }
            return Typed({ machine in try Operators.negate(try eval(machine)) })

        case .chain(let first, let links, _):
            return compileChain(first, links)

        case .keyPath, .closure:
            return Typed(Self.unreachable("a key path or closure outside 'observe'"))

        case .cast(let inner, let type, let forced, let conditional, let location):
            return compileCast(inner, type, forced: forced, conditional: conditional, location)

        case .forceUnwrap(let inner, _):
            // A scenario's values are never optional: `x!` is `x`.
            return compileExpr(inner)

        case .binary("??", let lhs, let rhs, _):
            return compileNilCoalescing(lhs, rhs)

        case .binary(let op, let lhs, let rhs, let location):
            let left = compileExpr(lhs).eval
            let right = compileExpr(rhs).eval
            switch op {
            case "&&":
                return Typed({ machine in
                    .bool(try Operators.truth(try left(machine)) && Operators.truth(try right(machine)))
                })
            case "||":
                return Typed({ machine in
                    .bool(try Operators.truth(try left(machine)) || Operators.truth(try right(machine)))
                })
            case "..<", "...":
                return Typed(Self.unreachable("a range outside 'for … in'"))
            default:
                guard let function = Operators.general(op, meter: machine.kvo.work) else {
                    return Typed(Self.unreachable("operator '\(op)'"))
                }
                // Arithmetic and comparisons try their common cases inline first.
                let fast = Operators.FastPath(op)
                if case .literal(let constant, _) = rhs {
                    // `x * 2`, `i + 1`: the constant is captured, not evaluated.
                    // `lComponent + 16`, `redComponent * 0.01` in an accessor:
                    // the property of `self` is read here, not through a
                    // closure of its own.
                    switch selfOperand(lhs) {
                    case .stored(let slot)?:
                        return Typed({ machine in
                            try Operators.apply(fast, function, try machine.ownSlot(slot), constant, at: location)
                        })
                    case .getter(let getter, let body)?:
                        return Typed({ machine in
                            try Operators.apply(
                                fast, function, try machine.ownGetter(getter.name, body), constant, at: location)
                        })
                    case nil:
                        break
                    }
                    // `i + 1`, `i < 10`: the variable is read here too.
                    switch variableOperand(lhs) {
                    case .global(let slot)?:
                        return Typed({ machine in
                            try Operators.apply(fast, function, machine.globals[slot], constant, at: location)
                        })
                    case .local(let slot)?:
                        return Typed({ machine in
                            try Operators.apply(fast, function, machine.local(slot), constant, at: location)
                        })
                    case nil:
                        return Typed({ machine in
                            try Operators.apply(fast, function, try left(machine), constant, at: location)
                        })
                    }
                }
                // `i < n` between two variables of the same scope: both read here.
                switch (variableOperand(lhs), variableOperand(rhs)) {
                case (.global(let a)?, .global(let b)?):
                    return Typed({ machine in
                        try Operators.apply(fast, function, machine.globals[a], machine.globals[b], at: location)
                    })
                case (.local(let a)?, .local(let b)?):
                    return Typed({ machine in
                        try Operators.apply(fast, function, machine.local(a), machine.local(b), at: location)
                    })
                default:
                    return Typed({ machine in
                        let (a, b) = (try left(machine), try right(machine))
                        return try Operators.apply(fast, function, a, b, at: location)
                    })
                }
            }
        }
    }

    /// One step of a long operator chain: the operator and its right operand.
    private enum ChainStep {
        case and(Eval)
        case or(Eval)
        case apply(Operators.FastPath?, Operators.Binary, Eval, SourceLocation)
    }

    /// A flat `.chain` (`1 + 1 + … + 1`), compiled and evaluated in loops,
    /// never recursively: a 100,000-term sum costs no stack.
    private func compileChain(_ base: Expr, _ links: [ChainLink]) -> Typed {
        let first = compileExpr(base).eval
        var steps: [ChainStep] = []
        steps.reserveCapacity(links.count)
        for link in links {
            let right = compileExpr(link.operand).eval
            switch link.op {
            case "&&": steps.append(.and(right))
            case "||": steps.append(.or(right))
            default:
                // Ranges and unknown operators were reported by the checker.
                guard let function = Operators.general(link.op, meter: machine.kvo.work) else {
                    return Typed(Self.unreachable("operator '\(link.op)'"))
                }
                steps.append(.apply(Operators.FastPath(link.op), function, right, link.location))
            }
        }
        return Typed({ machine in
            var value = try first(machine)
            for step in steps {
                switch step {
                case .and(let right): value = .bool(try Operators.truth(value) && Operators.truth(try right(machine)))
                case .or(let right): value = .bool(try Operators.truth(value) || Operators.truth(try right(machine)))
                case .apply(let fast, let function, let right, let location):
                    value = try Operators.apply(fast, function, value, try right(machine), at: location)
                }
            }
            return value
        })
    }

    /// A variable an operator reads in place.
    private enum VariableOperand {
        case global(slot: Int)
        case local(slot: Int)
    }

    /// The variable that `expr` names, if it is one.
    private func variableOperand(_ expr: Expr) -> VariableOperand? {
        guard case .identifier(_, let location, _) = expr else { return nil }
        switch binding(at: location) {
        case .global(let slot, _, _)?: return .global(slot: slot)
        case .local(let slot, _, _)?: return .local(slot: slot)
        default: return nil
        }
    }

    /// The elements of an array literal made only of literals and known
    /// dot names; nil otherwise.
    private func constantElements(_ elements: [Expr]) -> [Value]? {
        var values: [Value] = []
        for element in elements {
            switch element {
            case .literal(let value, _): values.append(value)
            case .dotName(let name, _):
                guard let value = DotLiterals.values[name] else { return nil }
                values.append(value)
            default: return nil
            }
        }
        return values
    }

    /// A property of `self` that an operand reads by its bare name.
    private enum SelfOperand {
        /// A stored property: its slot.
        case stored(slot: Int)
        /// A computed property whose getter body is already compiled.
        case getter(GetterBody, Eval)
    }

    /// What an operand reads from `self`, for operators to read it in place;
    /// nil for anything else.
    private func selfOperand(_ expr: Expr) -> SelfOperand? {
        guard let property = selfProperty(expr) else { return nil }
        if case .stored(let slot) = property.storage { return .stored(slot: slot) }
        if let getter = getterBodies[ObjectIdentifier(property)], let body = getter.eval {
            return .getter(getter, body)
        }
        return nil
    }

    /// The property of `self` that `expr` reads: a bare name that is not a
    /// local, a global or an `_ivar`, or `self.name`, in an instance method or
    /// accessor.
    func selfProperty(_ expr: Expr) -> PropertyInfo? {
        let name: String
        switch expr {
        case .identifier(let identifier, let location, _) where binding(at: location) == nil: name = identifier
        case .member(.selfRef, let member, _): name = member
        default: return nil
        }
        guard !name.hasPrefix("_"), let cls = function?.cls, function?.isStatic == false else { return nil }
        return cls.info.property(named: name)
    }

    private func compileIdentifier(_ name: String, _ location: SourceLocation, _ length: Int) -> Typed {
        if let binding = binding(at: location) {
            switch binding {
            case .global(_, _, let type), .local(_, _, let type): return Typed(loader(binding), type)
            case .context, .function, .classRef: return Typed(loader(binding))
            }
        }
        if let cls = function?.cls, function?.isStatic == false {
            let isIvar = name.hasPrefix("_") && name.count > 1
            let key = isIvar ? String(name.dropFirst()) : name
            if let property = cls.info.property(named: key) {
                let type = propertyClass(property)
                if isIvar {
                    return Typed({ machine in try machine.withSelf { try Self.ivar($0, property) } }, type)
                }
                if let getter = getterBodies[ObjectIdentifier(property)] {
                    // A computed property of `self`: its body, run in place.
                    if let body = getter.eval {
                        // Already compiled (declared earlier): call it directly.
                        return Typed({ machine in try machine.ownGetter(getter.name, body) }, type)
                    }
                    return Typed(
                        { machine in
                            guard let body = getter.eval else {
                                return try machine.withSelf { try machine.kvo.get($0, property) }
                            }
                            return try machine.ownGetter(getter.name, body)
                        }, type)
                }
                if case .stored(let slot) = property.storage {
                    // A stored property of `self`: its slot (what `get` reads).
                    return Typed({ machine in try machine.ownSlot(slot) }, type)
                }
                return Typed({ machine in try machine.withSelf { try machine.kvo.get($0, property) } }, type)
            }
            if name == "observationInfo" {
                return Typed({ machine in try machine.selfValue().observationInfoValue() })
            }
        }
        return Typed(Self.unreachable("an unresolved name '\(name)'"))
    }

    func propertyClass(_ property: PropertyInfo) -> ScriptClass? {
        if case .object(let name) = property.type { return environment.classes[name] }
        return nil
    }

    func compileMember(_ receiver: Typed, _ name: String, _ location: SourceLocation) -> Typed {
        let receiverEval = receiver.eval
        if let cls = receiver.cls {
            let isIvar = name.hasPrefix("_") && name.count > 1
            let key = isIvar ? String(name.dropFirst()) : name
            if let property = cls.info.property(named: key) {
                let type = propertyClass(property)
                let cache = MemberCache()
                return Typed(
                    { machine in
                        guard case .object(let object) = try receiverEval(machine) else { return .null }
                        let resolved = cache.lookup(object, key) ?? property
                        return isIvar ? try Self.ivar(object, resolved) : try machine.kvo.get(object, resolved)
                    }, type)
            }
            if name != "observationInfo" && name != "className" {
                return Typed(Self.unreachable("an unknown property '\(key)'"))
            }
        }
        let cache = MemberCache()
        return Typed({ machine in try Self.member(of: try receiverEval(machine), name, cache, machine) })
    }

    /// `x.name` on a value whose type is only known at run time.
    static func member(of value: Value, _ name: String, _ cache: MemberCache, _ machine: Machine) throws -> Value {
        switch value {
        case .object(let object):
            if let property = cache.lookup(object, name) { return try machine.kvo.get(object, property) }
            if name == "observationInfo" { return try value.observationInfoValue() }
            if name == "className" { return .string(object.cls.name) }
            if name.hasPrefix("_"), let property = object.cls.property(named: String(name.dropFirst())) {
                return try ivar(object, property)
            }
            let names = object.cls.properties.map(\.name) + ["observationInfo"]
            throw ScriptError.runtime(
                .noProperty(className: object.cls.name, key: name, suggestion: Suggestion.didYouMean(name, in: names)))
        case .null:
            return .null
        case .array(let elements):
            switch name {
            case "count": return .int(elements.count)
            case "isEmpty": return .bool(elements.isEmpty)
            case "first": return elements.first ?? .null
            case "last": return elements.last ?? .null
            default: break
            }
        case .set(let set):
            switch name {
            case "count": return .int(set.count)
            case "isEmpty": return .bool(set.count == 0)
            default: break
            }
        case .string(let text):
            switch name {
            case "count": return .int(text.count)
            case "isEmpty": return .bool(text.isEmpty)
            case "localizedDescription": return value
            default: break
            }
        case .arrayProxy, .setProxy:
            let contents = try machine.kvo.proxyContents(value)
            if name == "count" || name == "isEmpty" || name == "first" || name == "last" {
                return try member(of: contents, name, cache, machine)
            }
        case .change(let change):
            switch name {
            case "kind": return .int(change.kind.rawValue)
            case "new", "newValue": return change.new ?? .null
            case "old", "oldValue": return change.old ?? .null
            case "indexes": return change.indexes.map { .array($0.map(Value.int)) } ?? .null
            case "isPrior", "notificationIsPrior": return .bool(change.isPrior)
            default: break
            }
        case .exception(let exception):
            switch name {
            case "name": return .string(exception.name)
            case "reason": return .string(exception.reason)
            default: if let field = errorField(exception, name) { return field }
            }
        case .context(let context):
            if name == "name" { return .string(context.name) }
        case .bool, .int, .double, .float, .decimal, .option, .setMutation, .observationInfo:
            break
        }
        throw ScriptError.runtime(.noMember(type: value.typeName, name: name))
    }
}

extension Value {
    func observationInfoValue() throws -> Value {
        guard case .object(let object) = self else { return .null }
        try object.checkAlive()
        return .observationInfo(object)
    }
}
