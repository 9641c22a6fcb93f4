/// Key-Value Coding: `value(forKey:)`, `setValue(_:forKey:)`, key paths,
/// collection operators and the accessors the language's `o.prop` uses.
extension KVORuntime {
    // MARK: Accessors

    /// `o.prop`: the getter.
    public func get(_ object: KVOObject, _ property: PropertyInfo) throws -> Value {
        try object.checkAlive()
        if let slot = property.slot { return object[slot: slot] }
        guard let getter = property.getter else { return .null }
        return try getter(object)
    }

    /// `o.prop = v`: the setter, wrapped in will/did when the key notifies
    /// automatically and someone observes the object. An unobserved object costs
    /// one check.
    /// `asKVC`: the value comes from `setValue(_:forKey:)`, which converts
    /// only into scalars and stores anything else as it is (SPEC §4.2).
    public func set(_ object: KVOObject, _ property: PropertyInfo, _ value: Value, asKVC: Bool = false) throws {
        try object.checkAlive()
        guard let info = object.observationInfo, try object.cls.automaticallyNotifies(property) else {
            guard explains(about: object) else { return try store(object, property, value, asKVC: asKVC) }
            guard property.setter != nil else {
                explainSilentSet(object, property)
                return try store(object, property, value, asKVC: asKVC)
            }
            // A custom setter may notify by hand (an @manual key's
            // willChange/didChange): said only when it did not, after it ran.
            let key = ObjectKey(object, property.name)
            let started = changesStarted[key]
            try store(object, property, value, asKVC: asKVC)
            if changesStarted[key] == started { explainSilentSet(object, property) }
            return
        }
        let key = property.name
        // A stored property whose observers all watch it directly: no
        // custom setter and no prior notification run code between the will
        // and the did, so the change needs no pending entry (B1, B2).
        if !explains, property.setter == nil, let slot = property.slot, info.forwardingCount == 0,
            let direct = info.directSet(of: key)
        {
            return try setDirectlyObserved(object, property, slot: slot, value, info, direct, asKVC: asKVC)
        }
        if explains { explainAutomatic = true }
        do {
            try willChange(object, key: key)
            try store(object, property, value, asKVC: asKVC)
        } catch {
            discardPending(object, key: key)
            throw error
        }
        try didChange(object, key: key)
    }

    /// `o.items.append(x)` and `o.items[i] = x` where nobody can tell a
    /// change in place from the language's get, change and set (which
    /// copies the array on every change, the slot still holding it): the
    /// object is unobserved (no notification, no old value), the property
    /// is stored and runs no setter of its own, nothing is explained, and
    /// its slot still holds the array `read` was read from. Then `read` is
    /// let go of, so that the slot's array is held once, and `change` runs
    /// on it where it is with `element` as the set would have converted it.
    /// False, with nothing run, when the set must run.
    public func changeArrayInPlace(
        _ object: KVOObject, _ property: PropertyInfo, storing element: Value, read: inout Value,
        _ change: (inout PackedArray, Value) -> Void
    ) -> Bool {
        changeInPlace(object, property, read: &read, change) { type, elements, checking in
            type.acceptStoring(element, into: elements, checkingElements: checking)
        }
    }

    /// `o.items += added` where nobody can tell, as `changeArrayInPlace`:
    /// `added`'s elements appended where the array is, each as the set would
    /// have converted it; false, with nothing run, when one would be refused
    /// (the set then says which) or the set must run for another reason.
    public func appendInPlace(
        _ object: KVOObject, _ property: PropertyInfo, contentsOf added: Value, read: inout Value
    )
        -> Bool
    {
        guard case .array(let more) = added else { return false }
        return changeInPlace(object, property, read: &read, { $0.append(contentsOf: $1) }) {
            type, elements, checking in
            type.acceptStoring(contentsOf: more, into: elements, checkingElements: checking)
        }
    }

    /// The change in place both run: `accept` gives what is stored (nil
    /// when the set must run), then `read` is let go of and `change` runs on
    /// the slot's array with it.
    private func changeInPlace<Accepted>(
        _ object: KVOObject, _ property: PropertyInfo, read: inout Value,
        _ change: (inout PackedArray, Accepted) -> Void, accept: (ValueType, PackedArray, Bool) -> Accepted?
    ) -> Bool {
        guard let (slot, accepted) = slotForChangeInPlace(object, property, read: read, accept: accept) else {
            return false
        }
        read = .null
        return object.changeArray(inSlot: slot) { change(&$0, accepted) }
    }

    /// The checks of the changes in place, in a function of their own: the
    /// arrays they bind are let go of when it returns, before the change,
    /// which would otherwise find its storage shared and copy it. `accept`
    /// converts what is stored, given the declared type, the elements there
    /// and whether they must be checked too.
    private func slotForChangeInPlace<Accepted>(
        _ object: KVOObject, _ property: PropertyInfo, read: Value,
        accept: (ValueType, PackedArray, Bool) -> Accepted?
    ) -> (Int, Accepted)? {
        guard object.observationInfo == nil, !explains(about: object), property.setter == nil,
            let slot = property.slot, case .array(let elements) = read,
            case .array(let stored) = object[slot: slot], stored.identity == elements.identity,
            let accepted = accept(property.type, elements, property.mayHoldRefusedElements)
        else { return nil }
        return (slot, accepted)
    }

    /// Runs the custom setter or stores into the slot, checking the declared type.
    func store(_ object: KVOObject, _ property: PropertyInfo, _ value: Value, asKVC: Bool = false) throws {
        if let setter = property.setter { return try setter(object, value) }
        guard let slot = property.slot else {
            throw ScriptError.runtime("property '\(property.name)' of \(object.cls.name) is read-only")
        }
        object[slot: slot] = try checked(value, for: property, of: object, asKVC: asKVC)
    }

    /// `o._prop = v`: the instance variable, never notifying.
    public func setIvar(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        // Inside a change of the same key (a custom setter between its will
        // and did) the write is that change's store, not a silent one.
        if explains(about: object) && !isPending(object, key: property.name) {
            explain(.silent(object: object.name, key: "_" + property.name, reason: .ivarWrite))
        }
        try storeIvar(object, property, value)
    }

    /// Stores into the instance variable: no setter runs, nobody is told.
    func storeIvar(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        try object.checkAlive()
        guard let slot = property.slot else {
            throw ScriptError.runtime(
                "computed property '\(property.name)' of \(object.cls.name) has no instance variable")
        }
        object[slot: slot] = try checked(value, for: property, of: object)
    }

    /// The value a property stores: the declared type's conversion, or the
    /// value itself when KVC stores into an object property (String, a
    /// class, an array, a set, `Any`), which KVC never converts: Objective-C
    /// keeps whatever object it is given (`setValue(5, forKey: "name")`).
    func checked(_ value: Value, for property: PropertyInfo, of object: KVOObject, asKVC: Bool = false) throws -> Value
    {
        if property.type.acceptsUnchanged(value) { return value }
        if asKVC && !property.type.isScalar {
            if let accepted = property.type.accept(value) { return accepted }
            if property.type.isToMany { property.mayHoldRefusedElements = true }
            return value
        }
        guard let accepted = property.type.accept(value) else {
            throw ScriptError.runtime(
                "cannot store \(value.typeName) \(value.diagnosticDescription) in property '\(property.name)' of \(object.cls.name), declared \(property.type)"
            )
        }
        return accepted
    }

    // MARK: value(forKey:)

    /// `value(forKey:)` on any value: objects, collections (mapped, as NSArray
    /// does), proxies and change dictionaries.
    /// `owner` names a collection reached through a property (`dept.employees`)
    /// in exception texts.
    public func value(of target: Value, forKey key: String, owner: CollectionOwner? = nil) throws -> Value {
        switch target {
        case .object(let object):
            try object.checkAlive()
            if let property = object.cls.kvcProperty(named: key), !property.kvcHidden {
                return try get(object, property)
            }
            if let found = try searchGetter(object, key: key) { return found }
            if let hook = object.cls.hook({ $0.valueForUndefinedKey }) { return try hook(object, key) }
            throw exception(Exceptions.undefinedKeyGet(object.pointerDescription, key: key))
        case .array, .set:
            if KeyPaths.isOperator(key) { return try collectionOperator(key, on: target, rest: [], owner: owner) }
            return try map(target, forKey: key)
        case .arrayProxy, .setProxy:
            return try value(of: try proxyContents(target), forKey: key, owner: CollectionOwner(proxy: target))
        case .change(let change):
            switch key {
            case "kind": return .int(change.kind.rawValue)
            case "new": return change.new ?? .null
            case "old": return change.old ?? .null
            case "indexes": return change.indexes.map { .array($0.map(Value.int)) } ?? .null
            case "notificationIsPrior": return change.isPrior ? .bool(true) : .null
            default: return .null
            }
        case .null:
            return .null
        case .bool, .int, .double, .float, .decimal, .string:
            if let answer = Value.foundationGetter(target, key) { return answer }
            throw exception(Exceptions.undefinedKeyGet(collectionReceiver(target, owner: nil), key: key))
        case .context, .option, .setMutation, .observationInfo, .exception:
            if key == "self" { return target }
            throw exception(Exceptions.undefinedKeyGet(collectionReceiver(target, owner: nil), key: key))
        }
    }

    /// `value(forKeyPath:)`: one key at a time; a collection operator applies to
    /// the collection reached so far and the rest of the path.
    public func value(of target: Value, forKeyPath keyPath: String, owner: CollectionOwner? = nil) throws -> Value {
        if !keyPath.utf8.contains(UInt8(ascii: ".")) && !KeyPaths.isOperator(keyPath) {
            return try value(of: target, forKey: keyPath, owner: owner)
        }
        return try value(of: target, forPath: KeyPaths.components(keyPath)[...], owner: owner)
    }

    /// `value(forKeyPath:)` with the path already split. A collection met on
    /// the way is named after the object and key it was read from.
    func value(of target: Value, forPath path: ArraySlice<String>, owner: CollectionOwner? = nil) throws -> Value {
        var current = target
        var currentOwner = owner
        for index in path.indices {
            let key = path[index]
            if KeyPaths.isOperator(key) {
                return try collectionOperator(key, on: current, rest: Array(path[(index + 1)...]), owner: currentOwner)
            }
            let next = try value(of: current, forKey: key, owner: currentOwner)
            if case .object(let object) = current {
                currentOwner = CollectionOwner(object: object, key: key)
            } else {
                currentOwner = nil
            }
            current = next
        }
        return current
    }

    // MARK: setValue(_:forKey:)

    /// `setValue(_:forKey:)`: coerces as KVC does, calls `setNilValueForKey` for
    /// nil scalars and the setter (which notifies) otherwise.
    public func setValue(_ value: Value, of target: Value, forKey key: String) throws {
        switch target {
        case .object(let object):
            try object.checkAlive()
            let setterMethod = object.cls.setterMethod(forKey: key)
            guard setterMethod == nil, let property = object.cls.property(named: key), !property.isReadOnly,
                !property.kvcHidden
            else {
                if try setThroughSearch(value, of: object, forKey: key, setterMethod: setterMethod) { return }
                if let hook = object.cls.hook({ $0.setValueForUndefinedKey }) { return try hook(object, value, key) }
                throw exception(Exceptions.undefinedKeySet(object.pointerDescription, key: key))
            }
            if property.type.isScalar && value.isNull {
                if let hook = object.cls.hook({ $0.setNilValueForKey }) { return try hook(object, key) }
                throw exception(Exceptions.setNil(object, key: key))
            }
            try set(object, property, try coerce(value, to: property.type, key: key, of: object), asKVC: true)
        case .array, .set, .arrayProxy, .setProxy:
            try walkNested(target) { element in try setValue(value, of: element, forKey: key) }
        case .null:
            return
        case .bool, .int, .double, .float, .decimal, .string, .context, .option, .setMutation, .observationInfo,
            .change, .exception:
            throw exception(Exceptions.undefinedKeySet(collectionReceiver(target, owner: nil), key: key))
        }
    }
}
