import KVOCore

// MARK: Classes

extension Checker {
    /// Declares each class after its superclass, which may come later in the
    /// file: a class's subclasses in this batch are declared right after it,
    /// breadth first. Linear in the number of classes and without recursion —
    /// an inheritance chain may be 20,000 classes long, in any order.
    func declareClasses(_ decls: [ClassDecl]) {
        batchClassNames = decls.map(\.name)
        defer { batchClassNames = [] }
        var firstIndex: [String: Int] = [:]
        for (index, decl) in decls.enumerated() where firstIndex[decl.name] == nil { firstIndex[decl.name] = index }
        var subclasses = Array(repeating: [Int](), count: decls.count)
        var roots: [Int] = []
        for (index, decl) in decls.enumerated() {
            if let (superName, _) = decl.superclass, superName != "NSObject", environment.classes[superName] == nil,
                let parent = firstIndex[superName]
            {
                subclasses[parent].append(index)
            } else {
                roots.append(index)
            }
        }
        var reached = Array(repeating: false, count: decls.count)
        var declared: [(ClassDecl, ScriptClass)] = []
        for root in roots {
            // (index, whether its superclass was declared)
            var queue = [(root, true)]
            var head = 0
            reached[root] = true
            while head < queue.count {
                let (index, superclassDeclared) = queue[head]
                head += 1
                // A class whose superclass could not be declared (reported
                // there) is not declared either, without a second error.
                var cls: ScriptClass?
                if superclassDeclared { cls = declareClass(decls[index]) }
                if let cls { declared.append((decls[index], cls)) }
                for child in subclasses[index] {
                    reached[child] = true
                    queue.append((child, cls != nil))
                }
            }
        }
        for (index, decl) in decls.enumerated() where !reached[index] {
            error(.inheritanceCycle(className: decl.name), at: decl.location)
        }
        for (decl, cls) in declared { resolveTypes(decl, cls) }
        for (decl, cls) in declared { checkAffectedBy(decl, cls) }
        for (decl, cls) in declared { checkHookSignatures(cls, decl) }
        declaredClasses += declared
    }

    private func declareClass(_ decl: ClassDecl) -> ScriptClass? {
        guard declareGlobalName(decl.name, at: decl.location) else { return nil }
        if case .global? = environment.globalNames[decl.name] {
            error(.classNameIsVariable(decl.name), at: decl.location)
            return nil
        }
        var superclass: ScriptClass?
        if let (superName, location) = decl.superclass, superName != "NSObject" {
            guard let found = environment.classes[superName] else {
                let names = Array(environment.classes.keys) + batchClassNames
                error(
                    .unknownSuperclass(superName, suggestion: Suggestion.didYouMean(superName, in: names)),
                    at: location, length: superName.count)
                return nil
            }
            superclass = found
        }
        let info = ClassInfo(name: decl.name, superclass: superclass?.info)
        let cls = ScriptClass(info: info, superclass: superclass, location: decl.location)
        declareInitializer(decl, cls)
        environment.classes[decl.name] = cls
        environment.globalNames[decl.name] = .classRef(cls)

        var seen: Set<String> = []
        for property in decl.properties {
            guard seen.insert(property.name).inserted else {
                error(.propertyRedeclared(property.name), at: property.location)
                continue
            }
            if superclass?.info.property(named: property.name) != nil {
                error(.propertyInSuperclass(property.name, className: decl.name), at: property.location)
                continue
            }
            declareProperty(property, in: cls)
        }
        for method in decl.methods {
            let box = FunctionBox(
                name: method.name, parameters: method.parameters, isStatic: method.isStatic, location: method.location)
            if method.isStatic {
                if cls.staticMethods[method.name] != nil {
                    error(.staticMethodRedeclared(method.name), at: method.location)
                }
                cls.staticMethods[method.name] = box
            } else {
                if cls.methods[method.name] != nil {
                    error(.methodRedeclared(method.name), at: method.location)
                }
                if info.property(named: method.name) != nil {
                    error(.methodIsProperty(method.name, className: decl.name), at: method.location)
                }
                cls.methods[method.name] = box
            }
            pendingBodies.append { [unowned self] in self.checkBody(method, cls: cls) }
        }
        return cls
    }

    /// Declares a property with everything its checks need (type, storage,
    /// whether it has a setter); its accessors' code comes later.
    private func declareProperty(_ decl: PropertyDecl, in cls: ScriptClass) {
        let type = decl.type?.type ?? inferType(decl.initial) ?? .any
        let storage: PropertyInfo.Storage = decl.computed == nil ? .stored(slot: 0) : .computed
        let property = PropertyInfo(
            name: decl.name, type: type, storage: storage, isManual: decl.isManual,
            affectedBy: decl.affectedBy.map(\.0))
        property.hasSetter = decl.setter != nil
        cls.info.addProperty(property)
        if case .stored = storage, cls.info.slotCount == KVOObject.maxSlots + 1 {
            error(.tooManyStoredProperties(className: cls.info.name, limit: KVOObject.maxSlots), at: decl.location)
        }
        declarePropertyObservers(decl, in: cls)
        if let initial = decl.initial {
            if let constant = initial.constantValue {
                if let accepted = type.accept(constant) {
                    property.defaultValue = accepted
                } else {
                    error(
                        .initialValueType(valueType: constant.typeName, property: decl.name, declared: "\(type)"),
                        at: initial.location)
                }
            } else {
                pendingBodies.append { [unowned self] in
                    self.inBody(
                        cls, parameters: [], isStatic: true, name: decl.name, isAccessor: true, key: initial.location
                    ) {
                        _ = self.checkExpr(initial)
                    }
                }
            }
        }
        if let computed = decl.computed {
            pendingBodies.append { [unowned self] in
                self.inBody(cls, parameters: [], name: decl.name, isAccessor: true, key: computed.location) {
                    _ = self.checkExpr(computed)
                }
            }
        }
        if let setter = decl.setter {
            pendingBodies.append { [unowned self] in
                self.inBody(
                    cls, parameters: ["newValue"], name: "set \(decl.name)", isAccessor: true, key: decl.location
                ) {
                    self.checkBlock(setter)
                }
            }
        }
    }

    private func inferType(_ initial: Expr?) -> ValueType? {
        guard let initial else { return nil }
        switch initial.constantValue {
        case .int?: return .int
        case .double?: return .double
        case .bool?: return .bool
        case .string?: return .string
        case .array?: return .array(.any)
        default:
            if case .call(.identifier(let name, _, _), _, _) = initial, environment.classes[name] != nil {
                return .object(name)
            }
            return nil
        }
    }

    private func resolveTypes(_ decl: ClassDecl, _ cls: ScriptClass) {
        let builtinTypes = ["Int", "Double", "Bool", "String", "Any"]
        for property in decl.properties {
            guard let syntax = property.type else { continue }
            var type = syntax.type
            while true {
                switch type {
                case .array(let element), .set(let element):
                    type = element
                    continue
                case .object(let name) where environment.classes[name] == nil:
                    let names = Array(environment.classes.keys) + builtinTypes
                    error(
                        .unknownType(name, suggestion: Suggestion.didYouMean(name, in: names)), at: syntax.location,
                        length: syntax.length)
                default:
                    break
                }
                break
            }
        }
    }

    /// Affecting key paths must name properties; one through a to-many
    /// relationship is kept (observing the dependent key raises from the
    /// collection, as in Apple's KVO) with a warning.
    private func checkAffectedBy(_ decl: ClassDecl, _ cls: ScriptClass) {
        for property in decl.properties where !property.affectedBy.isEmpty {
            var kept: [String] = []
            for (path, location) in property.affectedBy {
                var current: ScriptClass? = cls
                let components = KeyPaths.components(path)
                for (index, key) in components.enumerated() {
                    guard let owner = current else { break }
                    guard let found = owner.info.property(named: key) else {
                        // Apple registers an affecting key no class has
                        // without a word: a warning, and the path is kept.
                        checkKeys([key], from: owner, use: .observed, at: location, length: path.count)
                        break
                    }
                    switch found.type {
                    case .object(let name):
                        current = environment.classes[name]
                    case .array, .set:
                        if index < components.count - 1, !KeyPaths.isLoneOperator(components[(index + 1)...]) {
                            warning(
                                .affectingPathThroughToMany(path: path, key: key, property: property.name),
                                at: location, length: path.count)
                        }
                        current = nil
                    default:
                        current = nil
                    }
                }
                kept.append(path)
            }
            cls.info.property(named: property.name)?.affectedBy = kept
        }
    }

    /// Whether KVC's accessor search finds `key` on instances of `cls`
    /// other than as a property of that name: a method `get<Key>`, `<key>`,
    /// `is<Key>` or `_<key>`, the pair `countOf<Key>` and
    /// `objectIn<Key>AtIndex`, or an instance variable (SPEC §5).
    static func kvcFinds(_ key: String, in cls: ScriptClass) -> Bool {
        let capital = KeyPaths.capitalized(key)
        for name in ["get" + capital, key, "is" + capital, "_" + key] {
            if cls.info.property(named: name) != nil || cls.method(name) != nil { return true }
        }
        if cls.info.property(named: "countOf" + capital) != nil || cls.method("countOf" + capital) != nil,
            cls.method("objectIn" + capital + "AtIndex") != nil
        {
            return true
        }
        return ["_" + key, "_is" + capital, key, "is" + capital].contains { cls.info.ivar(named: $0) != nil }
    }

    /// The NSObject methods a class overrides must take what NSObject passes.
    private func checkHookSignatures(_ cls: ScriptClass, _ decl: ClassDecl) {
        for hook in Hook.all {
            let box = hook.isStatic ? cls.staticMethods[hook.name] : cls.methods[hook.name]
            if let box, box.parameters.count != hook.parameters {
                error(.hookSignature(method: box.name, signature: hook.signature), at: box.location)
            }
        }
    }
}
