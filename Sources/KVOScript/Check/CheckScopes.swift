import KVOCore

// MARK: Bodies and scopes

extension Checker {
    func checkBody(_ decl: FunctionDecl, cls: ScriptClass?) {
        var names = Set<String>()
        for parameter in decl.parameters where !names.insert(parameter).inserted {
            error(.duplicateParameter(parameter, function: decl.name), at: decl.location)
        }
        inBody(
            cls, parameters: decl.parameters, isStatic: decl.isStatic || cls == nil, name: decl.name,
            isAccessor: false, key: decl.location
        ) {
            self.checkBlock(decl.body)
        }
    }

    /// Checks `body` as the inside of a function: parameters take the first
    /// slots; the frame size is recorded under `key`.
    func inBody(
        _ cls: ScriptClass?, parameters: [String], isStatic: Bool = false, name: String,
        isAccessor: Bool, key: SourceLocation, _ body: () -> Void
    ) {
        let savedScopes = scopes
        let savedFunction = function
        function = FunctionState(cls: cls, isStatic: isStatic, name: name, isAccessor: isAccessor)
        scopes = [[:]]
        for parameter in parameters { _ = declareLocal(parameter, isLet: false, type: nil) }
        body()
        resolutions.frameSizes[key] = function?.nextSlot ?? 0
        scopes = savedScopes
        function = savedFunction
    }

    /// Declares a variable in the innermost scope: a frame slot inside a
    /// function, a global slot in top-level code.
    func declareLocal(_ name: String, isLet: Bool, type: ScriptClass?) -> Binding {
        let binding: Binding
        if var state = function {
            binding = .local(state.nextSlot, isLet: isLet, type: type)
            state.nextSlot += 1
            function = state
        } else {
            binding = .global(environment.globalCount, isLet: isLet, type: type)
            environment.globalCount += 1
        }
        if scopes.isEmpty {
            environment.globalNames[name] = binding
        } else {
            scopes[scopes.count - 1][name] = binding
        }
        return binding
    }

    func lookup(_ name: String) -> Binding? {
        for scope in scopes.reversed() {
            if let binding = scope[name] { return binding }
        }
        // Inside an instance member a property of self (or its ivar `_name`)
        // hides a global of the same name, as in Swift: the tutorial's
        // `first + " " + last` read a global `first` an earlier REPL entry made.
        if let cls = selfClass {
            let key = name.hasPrefix("_") && name.count > 1 ? String(name.dropFirst()) : name
            if cls.info.property(named: key) != nil { return nil }
        }
        return environment.globalNames[name]
    }

    /// Looks `name` up and records what the use at `location` refers to.
    func resolve(_ name: String, at location: SourceLocation) -> Binding? {
        guard let binding = lookup(name) else { return nil }
        resolutions.bindings[location] = binding
        return binding
    }

    /// Names in scope, for did-you-mean.
    func namesInScope() -> [String] {
        var names = Array(environment.globalNames.keys) + scopes.flatMap(\.keys)
        if let cls = function?.cls, function?.isStatic == false {
            names += cls.info.properties.map(\.name) + cls.allMethodNames
        }
        return names + ["print", "assert"]
    }

    /// The class of `self` in an instance method or accessor.
    var selfClass: ScriptClass? {
        guard let state = function, !state.isStatic else { return nil }
        return state.cls
    }

    func propertyClass(_ property: PropertyInfo) -> ScriptClass? {
        if case .object(let name) = property.type { return environment.classes[name] }
        return nil
    }
}
