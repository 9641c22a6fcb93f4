import KVOCore

extension Compiler {
    func compileCall(_ callee: Expr, _ arguments: [Argument], _ location: SourceLocation, nameHint: String?) -> Typed {
        switch callee {
        case .identifier(let name, let nameLocation, let length):
            return compileNamedCall(name, arguments, nameLocation, length, nameHint: nameHint)
        case .member(let receiver, "observe", _):
            return compileObserve(receiver, arguments, nameHint: nameHint)
        case .member(let receiver, let name, let memberLocation):
            return compileMethodCall(receiver, name, arguments, memberLocation)
        case .superMember("init", _):
            return Typed({ _ in .null })  // NSObject's init: nothing to do
        case .superMember(let name, let memberLocation):
            return compileSuperCall(name, arguments, memberLocation)
        default:
            return Typed(Self.unreachable("a call of an expression"))
        }
    }

    private func evals(_ arguments: [Argument]) -> ArgumentEvals {
        ArgumentEvals(arguments.map { compileExpr($0.value).eval })
    }

    private func compileNamedCall(
        _ name: String, _ arguments: [Argument], _ location: SourceLocation, _ length: Int, nameHint: String?
    ) -> Typed {
        switch name {
        case "print" where arguments.contains { $0.label != nil }:
            return compileLabelledPrint(arguments)
        case "print":
            let argumentEvals = evals(arguments)
            return Typed({ machine in
                let values = try argumentEvals.map { try $0(machine) }
                if values.count == 1, case .observationInfo(let object) = values[0] {
                    machine.emit(
                        .observationInfo(
                            object: object, observances: object.observanceSnapshots, depth: machine.kvo.depth))
                } else if let pending = machine.pendingPrint {
                    machine.pendingPrint = nil
                    let text = pending + (try Operators.joinedDescriptions(values, meter: machine.kvo.work))
                    machine.emit(.print(text: text, depth: machine.kvo.depth))
                } else {
                    machine.emit(
                        .print(
                            text: try Operators.joinedDescriptions(values, meter: machine.kvo.work),
                            depth: machine.kvo.depth))
                }
                return .null
            })
        case "assert":
            guard (1...2).contains(arguments.count) else { return Typed(Self.unreachable("'assert' arguments")) }
            let argumentEvals = evals(arguments)
            return Typed({ machine in
                if try Operators.truth(try argumentEvals[0](machine)) { return .null }
                let message = argumentEvals.count > 1 ? try argumentEvals[1](machine).printDescription : ""
                throw ScriptError.runtime(.assertionFailed(message: message))
            })
        case "type", "object_getClass", "NSStringFromClass", "NSError":
            return compileSwiftBuiltin(name, arguments)
        default:
            break
        }
        if let binding = binding(at: location) {
            switch binding {
            case .classRef(let cls): return compileConstructor(cls, arguments, location, nameHint: nameHint)
            case .function(let box):
                let argumentEvals = evals(arguments)
                return Typed({ machine in
                    try machine.invoke(box, selfObject: nil, arguments: try argumentEvals.map { try $0(machine) })
                })
            case .global, .local, .context:
                return Typed(Self.unreachable("a call of '\(name)'"))
            }
        }
        if let cls = function?.cls {
            if function?.isStatic == false, cls.method(name) != nil {
                return compileMethodCall(.selfRef(location), name, arguments, location)
            }
            if function?.isStatic == true, let box = cls.staticMethod(name) {
                let argumentEvals = evals(arguments)
                return Typed({ machine in
                    try machine.invoke(box, selfObject: nil, arguments: try argumentEvals.map { try $0(machine) })
                })
            }
            if function?.isStatic == false, BuiltinSignatures.names.contains(name) {
                return compileMethodCall(.selfRef(location), name, arguments, location)
            }
        }
        if name == "graph" {
            let argumentEvals = evals(arguments)
            return Typed({ machine in
                var objects: [KVOObject] = []
                for value in try argumentEvals.map({ try $0(machine) }) {
                    guard case .object(let object) = value else {
                        throw ScriptError.runtime(.graphNeedsObjects(type: value.typeName))
                    }
                    objects.append(object)
                }
                machine.emit(.graph(objects: objects, depth: machine.kvo.depth))
                return .null
            })
        }
        return Typed(Self.unreachable("an unresolved call of '\(name)'"))
    }

    private func compileConstructor(
        _ cls: ScriptClass, _ arguments: [Argument], _ location: SourceLocation, nameHint: String?
    ) -> Typed {
        if let initializer = cls.anyInitializer {
            return compileInitializerCall(cls, initializer, arguments, nameHint: nameHint)
        }
        var setters: [(PropertyInfo, Eval)] = []
        for argument in arguments {
            guard let label = argument.label, let property = cls.info.property(named: label), !property.isReadOnly
            else {
                return Typed(Self.unreachable("a constructor label"))
            }
            setters.append((property, compileExpr(argument.value).eval))
        }
        let info = cls.info
        return Typed(
            { machine in
                try machine.construct(info, name: nameHint) { object in
                    try machine.runInitialValues(of: cls) { property, value in
                        guard let slot = property.slot else { return }
                        guard let accepted = property.type.accept(value) else {
                            throw ScriptError.runtime(
                                .initialValueType(
                                    type: value.typeName, property: property.name, declared: "\(property.type)"))
                        }
                        object[slot: slot] = accepted
                    }
                    for (property, eval) in setters {
                        try machine.kvo.set(object, property, try eval(machine))
                    }
                }
            }, cls)
    }

    private func compileMethodCall(
        _ receiver: Expr, _ name: String, _ arguments: [Argument], _ location: SourceLocation
    ) -> Typed {
        // Class methods: `Account.keyPathsForValuesAffecting("x")`.
        if case .identifier(_, let classLocation, _) = receiver, case .classRef(let cls)? = binding(at: classLocation) {
            guard let box = cls.staticMethod(name) else { return Typed(Self.unreachable("static method '\(name)'")) }
            let argumentEvals = evals(arguments)
            return Typed({ machine in
                try machine.invoke(box, selfObject: nil, arguments: try argumentEvals.map { try $0(machine) })
            })
        }
        let labels = arguments.map { $0.label ?? "_" }
        let signature = BuiltinSignatures.signature(name, labels)
        if name == "append", labels == ["_"], isAssignable(receiver) {
            return compileAppend(receiver, arguments[0])
        }
        // `dept.employees.addObserver(…)`: the object the collection was read
        // from is kept, to name the collection in the exceptions it raises.
        let ownerCapture = OwnerCapture()
        let typed: Typed
        if case .member(let base, let property, let memberLocation) = receiver, !property.hasPrefix("_") {
            let baseTyped = compileExpr(base)
            let baseEval = baseTyped.eval
            typed = compileMember(
                Typed(
                    { machine in
                        let value = try baseEval(machine)
                        ownerCapture.object = value
                        return value
                    }, baseTyped.cls), property, memberLocation)
            ownerCapture.key = property
        } else {
            typed = compileExpr(receiver)
        }
        let receiverEval = typed.eval
        let argumentEvals = evals(arguments)
        // `o.setColor(v)`: KVO overrides `-setColor:` while `color` is
        // observed, so calling it notifies.
        let notifying = arguments.count == 1 ? KeyPaths.keySet(byMethod: name) : nil
        if let cls = typed.cls, cls.method(name) == nil, Builtins.table[signature] == nil {
            return Typed(Self.unreachable("method '\(name)'"))
        }
        if let builtin = Builtins.table[signature], typed.cls?.method(name) == nil {
            let buffer = ArgumentBuffer()
            return Typed({ machine in
                let target = try receiverEval(machine)
                if case .object(let object) = target, let box = machine.method(of: object, name) {
                    return try machine.invokeMethod(
                        box, on: object, arguments: try argumentEvals.map { try $0(machine) }, notifying: notifying)
                }
                let owner = target.isCollection ? ownerCapture.owner : nil
                return try buffer.call(argumentEvals, machine) { arguments in
                    machine.receiverOwner = owner
                    defer { machine.receiverOwner = nil }
                    return try builtin(machine, target, arguments)
                }
            })
        }
        if typed.cls == nil, BuiltinSignatures.names.contains(name) {
            return Typed(Self.unreachable("the labels of '\(name)'"))
        }
        let cache = MethodCache()
        return Typed({ machine in
            let target = try receiverEval(machine)
            guard case .object(let object) = target else {
                if target.isNull { return .null }
                throw ScriptError.runtime(.noMethodOnValue(type: target.typeName, method: name))
            }
            guard let box = cache.method(machine, object, name) else {
                let names = machine.classes[ObjectIdentifier(object.cls)]?.allMethodNames ?? []
                throw ScriptError.runtime(
                    .noMethod(
                        className: object.cls.name, method: name, suggestion: Suggestion.didYouMean(name, in: names)))
            }
            return try machine.invokeMethod(
                box, on: object, arguments: try argumentEvals.map { try $0(machine) }, notifying: notifying)
        })
    }

    private func isAssignable(_ expr: Expr) -> Bool {
        switch expr {
        case .identifier(let name, let location, _):
            if let binding = binding(at: location) {
                if case .global(_, false, _) = binding { return true }
                if case .local(_, false, _) = binding { return true }
                return false
            }
            return function?.cls?.info.property(named: name.hasPrefix("_") ? String(name.dropFirst()) : name) != nil
        case .member: return true
        case .subscripted(let base, _, _): return isAssignable(base)
        default: return false
        }
    }

    /// `x.append(y)`: get, append, set (one setting notification for a property,
    /// as with Swift's `@objc dynamic` arrays); on a proxy, the proxy's `add`.
    private func compileAppend(_ receiver: Expr, _ argument: Argument) -> Typed {
        if case .identifier(_, let location, _) = receiver, let binding = binding(at: location) {
            // A variable's array is appended in place: taking it out of its slot
            // first leaves it uniquely referenced, so no copy is made.
            let valueEval = compileExpr(argument.value).eval
            switch binding {
            case .global(let slot, false, _):
                return Typed({ machine in
                    let value = try valueEval(machine)
                    guard var elements = Value.takeArray(&machine.globals[slot]) else {
                        return try Self.appendToProxy(machine.globals[slot], value, machine)
                    }
                    defer { machine.globals[slot] = .array(elements) }
                    try Operators.checkSize(array: elements.count + 1)
                    elements.append(value)
                    return .null
                })
            case .local(let slot, false, _):
                return Typed({ machine in
                    let value = try valueEval(machine)
                    guard var elements = Value.takeArray(&machine.stack[machine.base &+ slot]) else {
                        return try Self.appendToProxy(machine.local(slot), value, machine)
                    }
                    defer { machine.stack[machine.base &+ slot] = .array(elements) }
                    try Operators.checkSize(array: elements.count + 1)
                    elements.append(value)
                    return .null
                })
            default:
                break
            }
        }
        if let (receiverEval, name) = propertyReceiver(receiver) {
            return compilePropertyAppend(receiverEval, name, compileExpr(argument.value).eval)
        }
        guard let place = compileLValue(receiver) else { return Typed({ _ in .null }) }
        let valueEval = compileExpr(argument.value).eval
        return Typed({ machine in
            let current = try place.get(machine)
            let value = try valueEval(machine)
            try Self.append(value, to: current, machine) { try place.set(machine, $0) }
            return .null
        })
    }

    /// The object and the name of `o.items` (not an instance variable,
    /// `o._items`) or, in a method, of a bare `items`.
    func propertyReceiver(_ receiver: Expr) -> (Eval, String)? {
        let isIvar = { (name: String) in name.hasPrefix("_") && name.count > 1 }
        switch receiver {
        case .member(let base, let name, _) where !isIvar(name):
            return (compileExpr(base).eval, name)
        case .identifier(let name, let location, _) where binding(at: location) == nil && !isIvar(name):
            guard function?.cls != nil, function?.isStatic == false else { return nil }
            return ({ machine in try machine.selfValue() }, name)
        default:
            return nil
        }
    }

    /// `o.items.append(x)`: the receiver evaluated once and the argument
    /// before the array is read, as Swift evaluates them; the array changed
    /// where it is when nobody can tell (`KVORuntime.changeArrayInPlace`: an
    /// unobserved stored property), else read, appended to and set through
    /// the setter (one notification).
    private func compilePropertyAppend(
        _ receiverEval: @escaping Eval, _ name: String, _ valueEval: @escaping Eval
    )
        -> Typed
    {
        let cache = MemberCache()
        return Typed({ machine in
            let (object, property) = try Self.property(name, of: receiverEval, machine, cache)
            let value = try valueEval(machine)
            var current = try machine.kvo.get(object, property)
            if let count = Self.arrayCount(current) {
                try Operators.checkSize(array: count + 1)
                if machine.kvo.changeArrayInPlace(object, property, storing: value, read: &current, { $0.append($1) }) {
                    return .null
                }
            }
            try Self.append(value, to: current, machine) { try machine.kvo.set(object, property, $0) }
            return .null
        })
    }

    /// The object `receiverEval` gives and its property `name` (cached per
    /// class), for a statement that reads and sets the property once each.
    static func property(
        _ name: String, of receiverEval: Eval, _ machine: Machine, _ cache: MemberCache
    ) throws
        -> (KVOObject, PropertyInfo)
    {
        let object = try Self.object(try receiverEval(machine), for: name)
        return (object, try cache.property(of: object, name))
    }

    /// The count of an array value; nil for anything else. A function of
    /// its own, so that the array it binds is let go of when it returns.
    static func arrayCount(_ value: Value) -> Int? {
        if case .array(let elements) = value { return elements.count }
        return nil
    }

    /// `current` with `value` appended, given to `set`; a proxy's `add`.
    private static func append(
        _ value: Value, to current: Value, _ machine: Machine, set: (Value) throws -> Void
    )
        throws
    {
        switch current {
        case .array(var elements):
            try Operators.checkSize(array: elements.count + 1)
            elements.append(value)
            try set(.array(elements))
        case .arrayProxy, .setProxy:
            _ = try Builtins.call("add(_:)", machine, current, [value])
        default:
            throw ScriptError.runtime(.cannotAppend(type: current.typeName))
        }
    }

    static func appendToProxy(_ target: Value, _ value: Value, _ machine: Machine) throws -> Value {
        guard target.isProxy else { throw ScriptError.runtime(.cannotAppend(type: target.typeName)) }
        return try Builtins.call("add(_:)", machine, target, [value])
    }

    private func compileSuperCall(_ name: String, _ arguments: [Argument], _ location: SourceLocation) -> Typed {
        guard let state = function, let cls = state.cls else {
            return Typed(Self.unreachable("'super' outside a method"))
        }
        let argumentEvals = evals(arguments)
        let superclass = cls.superclass
        if let box = state.isStatic ? superclass?.staticMethod(name) : superclass?.method(name) {
            let isStatic = state.isStatic
            return Typed({ machine in
                try machine.invoke(
                    box, selfObject: isStatic ? nil : machine.selfObject,
                    arguments: try argumentEvals.map { try $0(machine) })
            })
        }
        let info = cls.info
        func expect(_ count: Int, _ signature: String) -> Bool { arguments.count == count }
        func string(_ value: Value) -> String {
            if case .string(let text) = value { return text }
            return value.printDescription
        }
        switch name {
        case "observeValue" where expect(4, "(keyPath, object, change, context)"):
            return Typed({ machine in
                let values = try argumentEvals.map { try $0(machine) }
                guard let observer = machine.selfObject, case .object(let object) = values[1] else {
                    throw ScriptError.runtime(.superObserveValueNeedsObject)
                }
                var change = Change(kind: .setting)
                if case .change(let given) = values[2] { change = given }
                var context: Context?
                if case .context(let given) = values[3] { context = given }
                throw machine.kvo.unhandledNotification(
                    observer: observer, keyPath: string(values[0]), object: object,
                    change: change, context: context)
            })
        case "setNilValueForKey" where expect(1, "(key)"):
            return Typed({ machine in
                guard let object = machine.selfObject else { return .null }
                throw machine.kvo.exception(Exceptions.setNil(object, key: string(try argumentEvals[0](machine))))
            })
        case "valueForUndefinedKey" where expect(1, "(key)"):
            return Typed({ machine in
                guard let object = machine.selfObject else { return .null }
                throw machine.kvo.exception(
                    Exceptions.undefinedKeyGet(object.pointerDescription, key: string(try argumentEvals[0](machine))))
            })
        case "setValueForUndefinedKey" where expect(2, "(value, key)"):
            return Typed({ machine in
                guard let object = machine.selfObject else { return .null }
                throw machine.kvo.exception(
                    Exceptions.undefinedKeySet(object.pointerDescription, key: string(try argumentEvals[1](machine))))
            })
        case "automaticallyNotifiesObservers" where expect(1, "(key)"):
            return Typed({ machine in
                .bool(info.defaultAutomaticallyNotifies(forKey: string(try argumentEvals[0](machine))))
            })
        case "keyPathsForValuesAffecting" where expect(1, "(key)"):
            return Typed({ machine in
                .array(info.defaultKeyPathsAffecting(string(try argumentEvals[0](machine))).map(Value.string))
            })
        default:
            let labels = arguments.map { $0.label ?? "_" }
            if !state.isStatic, let builtin = Builtins.table[BuiltinSignatures.signature(name, labels)] {
                return Typed({ machine in
                    try builtin(machine, try machine.selfValue(), try argumentEvals.map { try $0(machine) })
                })
            }
            return Typed(Self.unreachable("'super.\(name)'"))
        }
    }
}
