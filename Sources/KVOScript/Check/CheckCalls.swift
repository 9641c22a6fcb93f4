import KVOCore

// MARK: Calls

extension Checker {
    func checkCall(_ callee: Expr, _ arguments: [Argument], _ location: SourceLocation) -> ScriptClass? {
        switch callee {
        case .identifier(let name, let nameLocation, let length):
            return checkNamedCall(name, arguments, nameLocation, length)
        case .member(let receiver, let name, let memberLocation):
            checkMethodCall(receiver, name, arguments, memberLocation)
            return nil
        case .superMember(let name, let memberLocation):
            checkSuperCall(name, arguments, memberLocation)
            return nil
        default:
            error(.notCallable, at: location)
            return nil
        }
    }

    /// `print(items…, separator: s, terminator: t)`, as Swift's.
    private func checkPrintLabels(_ arguments: [Argument]) {
        var seenLabel = false
        for argument in arguments {
            guard let label = argument.label else {
                if seenLabel { error(.printItemsFirst, at: argument.location) }
                continue
            }
            seenLabel = true
            if label != "separator" && label != "terminator" {
                error(.printLabel(label), at: argument.location, length: label.count)
            }
        }
    }

    func checkArguments(_ arguments: [Argument]) {
        for argument in arguments { checkExpr(argument.value) }
    }

    func checkArity(_ box: FunctionBox, _ arguments: [Argument], _ location: SourceLocation) {
        let expected = box.parameters.count
        if expected != arguments.count {
            error(
                .arity(function: box.name, parameters: box.parameters, given: arguments.count), at: location,
                length: box.name.count)
        }
    }

    private func checkNamedCall(
        _ name: String, _ arguments: [Argument], _ location: SourceLocation, _ length: Int
    ) -> ScriptClass? {
        switch name {
        case "print":
            checkPrintLabels(arguments)
            checkArguments(arguments)
            return nil
        case "assert":
            guard (1...2).contains(arguments.count) else {
                error(.assertArguments, at: location, length: length)
                return nil
            }
            checkArguments(arguments)
            return nil
        case "type", "object_getClass", "NSStringFromClass", "NSError":
            checkSwiftBuiltin(name, arguments, location, length)
            return nil
        default:
            break
        }
        if let binding = resolve(name, at: location) {
            switch binding {
            case .classRef(let cls):
                checkConstructor(cls, arguments)
                return cls
            case .function(let box):
                checkArity(box, arguments, location)
                checkArguments(arguments)
            case .global, .local, .context:
                error(.notAFunction(name), at: location, length: length)
            }
            return nil
        }
        if let state = function, let cls = state.cls {
            if !state.isStatic, cls.method(name) != nil || BuiltinSignatures.names.contains(name) {
                checkMethodCall(.selfRef(location), name, arguments, location)
                return nil
            }
            if state.isStatic, let box = cls.staticMethod(name) {
                checkArity(box, arguments, location)
                checkArguments(arguments)
                return nil
            }
        }
        if name == "graph" {
            // `graph(o…)`: the observation graph now; a function of the
            // scenario's own named `graph` is found first.
            if arguments.isEmpty {
                error(.graphArguments, at: location, length: length)
            }
            checkArguments(arguments)
            return nil
        }
        let suggestion = Suggestion.didYouMean(name, in: namesInScope() + Array(environment.classes.keys))
        if name.first?.isUppercase == true && !suggestion.isEmpty {
            error(.unknownClass(name, suggestion: suggestion), at: location, length: length)
        } else {
            error(.notInScope(name, suggestion: suggestion), at: location, length: length)
        }
        return nil
    }

    /// `Account(balance: 100)`: each label a settable property.
    private func checkConstructor(_ cls: ScriptClass, _ arguments: [Argument]) {
        let name = cls.info.name
        if let initializer = cls.anyInitializer {
            checkInitializerCall(cls, initializer, arguments)
            return
        }
        for argument in arguments {
            guard let label = argument.label else {
                error(
                    .constructorNeedsLabels(className: name, firstProperty: cls.info.properties.first?.name ?? "name"),
                    at: argument.location)
                continue
            }
            guard let property = cls.info.property(named: label), !property.isReadOnly else {
                let names = cls.info.properties.filter { !$0.isReadOnly }.map(\.name)
                error(
                    .noStoredProperty(
                        className: name, label: label, suggestion: Suggestion.didYouMean(label, in: names)),
                    at: argument.location, length: label.count)
                continue
            }
            checkExpr(argument.value)
        }
    }

    private func checkMethodCall(_ receiver: Expr, _ name: String, _ arguments: [Argument], _ location: SourceLocation)
    {
        // Class methods: `Account.keyPathsForValuesAffecting("x")`.
        if case .identifier(let className, let classLocation, _) = receiver,
            case .classRef(let cls)? = lookup(className)
        {
            resolutions.bindings[classLocation] = .classRef(cls)
            guard let box = cls.staticMethod(name) else {
                error(.noStaticMethod(className: className, method: name), at: location, length: name.count)
                return
            }
            checkArity(box, arguments, location)
            checkArguments(arguments)
            return
        }
        let labels = arguments.map { $0.label ?? "_" }
        let signature = BuiltinSignatures.signature(name, labels)
        if name == "append", labels == ["_"], isAssignable(receiver) {
            checkLValue(receiver)
            checkArguments(arguments)
            return
        }
        if name == "observe" {
            checkObserve(receiver, arguments, location)
            return
        }
        let cls = checkExpr(receiver)
        checkArguments(arguments)
        if let cls, cls.method(name) == nil, BuiltinSignatures.all.contains(signature) {
            checkKeyArgument(of: name, arguments, on: cls)
        }
        func labelsError() {
            error(
                .argumentLabels(method: name, labels: labels, expected: BuiltinSignatures.signatures(named: name)),
                at: location, length: name.count + 1)
        }
        if let cls, cls.method(name) != nil || !BuiltinSignatures.all.contains(signature) {
            guard let box = cls.method(name) else {
                if BuiltinSignatures.names.contains(name) { return labelsError() }
                let candidates = cls.allMethodNames + Array(BuiltinSignatures.names)
                error(
                    .noMethod(
                        className: cls.info.name, method: name, suggestion: Suggestion.didYouMean(name, in: candidates)),
                    at: location, length: name.count + 1)
                return
            }
            checkArity(box, arguments, location)
            return
        }
        if cls == nil, !BuiltinSignatures.all.contains(signature), BuiltinSignatures.names.contains(name) {
            labelsError()
        }
    }

    /// Whether `x.append(y)` can store back into `x`.
    private func isAssignable(_ expr: Expr) -> Bool {
        switch expr {
        case .identifier(let name, _, _):
            if let binding = lookup(name) {
                switch binding {
                case .global(_, let isLet, _), .local(_, let isLet, _): return !isLet
                case .context, .function, .classRef: return false
                }
            }
            let key = name.hasPrefix("_") ? String(name.dropFirst()) : name
            return function?.cls?.info.property(named: key) != nil
        case .member: return true
        case .subscripted(let base, _, _): return isAssignable(base)
        default: return false
        }
    }

    private func checkSuperCall(_ name: String, _ arguments: [Argument], _ location: SourceLocation) {
        guard let state = function, let cls = state.cls else {
            error(.superOutsideMethod, at: location)
            return
        }
        checkArguments(arguments)
        if name == "init" {
            if let box = cls.superclass?.anyInitializer { checkArity(box, arguments, location) }
            return
        }
        let superclass = cls.superclass
        if let box = state.isStatic ? superclass?.staticMethod(name) : superclass?.method(name) {
            checkArity(box, arguments, location)
            return
        }
        if let hook = Hook.all.first(where: { $0.name == name }) {
            if arguments.count != hook.parameters {
                error(.superHookSignature(method: name, signature: hook.signature), at: location)
            }
            return
        }
        let labels = arguments.map { $0.label ?? "_" }
        if !state.isStatic, BuiltinSignatures.all.contains(BuiltinSignatures.signature(name, labels)) { return }
        error(
            .noSuperMethod(className: superclass?.info.name ?? "NSObject", method: name), at: location,
            length: name.count)
    }
}
