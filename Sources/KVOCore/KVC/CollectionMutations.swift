/// To-many changes: the `mutableArrayValue(forKey:)` and `mutableSetValue(forKey:)`
/// proxies, whose mutations notify with kinds 2–4 (docs/language.md#collection-proxies,
/// docs/language.md#change-dictionary).
extension KVORuntime {
    /// The object and key a proxy mutates, resolved anew on each use as
    /// Foundation's proxies do for key paths.
    public func proxyTarget(_ object: KVOObject, keyPath: String) throws -> (KVOObject, PropertyInfo) {
        var path = KeyPaths.components(keyPath)
        let key = path.removeLast()
        var owner = object
        if !path.isEmpty {
            guard case .object(let resolved) = try value(of: .object(object), forKeyPath: path.joined(separator: "."))
            else {
                throw ScriptError.runtime(
                    "the key path '\(keyPath)' of \(object.description) does not lead to an object")
            }
            owner = resolved
        }
        try owner.checkAlive()
        guard let property = owner.cls.property(named: key) else {
            throw exception(Exceptions.undefinedKeyGet(owner.pointerDescription, key: key))
        }
        return (owner, property)
    }

    /// The current contents of a proxy's collection.
    public func proxyContents(_ proxy: Value) throws -> Value {
        switch proxy {
        case .arrayProxy(let object, let keyPath):
            let (owner, property) = try proxyTarget(object, keyPath: keyPath)
            let contents = try get(owner, property)
            if contents.isNull { return .array([]) }
            guard case .array = contents else {
                throw ScriptError.runtime(
                    "mutableArrayValue: '\(property.name)' of \(owner.description) is not an array")
            }
            return contents
        case .setProxy(let object, let keyPath):
            let (owner, property) = try proxyTarget(object, keyPath: keyPath)
            let contents = try get(owner, property)
            if contents.isNull { return .set(ValueSet()) }
            guard case .set = contents else {
                throw ScriptError.runtime("mutableSetValue: '\(property.name)' of \(owner.description) is not a set")
            }
            return contents
        default:
            return proxy
        }
    }

    /// One mutation of an ordered to-many relationship, at sorted indexes.
    public enum ArrayMutation {
        case insert([Value], at: [Int])
        case remove(at: [Int])
        case replace(at: [Int], with: [Value])
    }

    /// Applies `mutation` to the array behind a `mutableArrayValue` proxy,
    /// notifying with the mutation's kind and indexes. Indexes are checked by
    /// the caller, which knows the selector to name in an NSRangeException.
    public func mutateArray(_ object: KVOObject, keyPath: String, _ mutation: ArrayMutation) throws {
        let (owner, property) = try proxyTarget(object, keyPath: keyPath)
        var elementType = ValueType.any
        if case .array(let element) = property.type { elementType = element }
        // Only what comes in is type-checked: the array already holds checked elements.
        func accepted(_ values: [Value]) throws -> [Value] {
            try values.map { value in
                guard let checked = elementType.accept(value) else {
                    throw ScriptError.runtime(
                        "cannot add \(value.typeName) \(value.diagnosticDescription) to '\(property.name)' of \(owner.cls.name), declared \(property.type)"
                    )
                }
                return checked
            }
        }
        switch mutation {
        case .insert(let values, let indexes):
            let values = try accepted(values)
            try changeToMany(owner, property, .ordered(.insertion, indexes)) { elements in
                for (value, index) in zip(values, indexes) where index <= elements.count {
                    elements.insert(value, at: index)
                }
            }
        case .remove(let indexes):
            try changeToMany(owner, property, .ordered(.removal, indexes)) { elements in
                // One pass over the array (`remove(sortedIndexes:)`):
                // removing many indexes one at a time shifted the rest each
                // time (quadratic). `indexes` is sorted and without repeats.
                elements.remove(sortedIndexes: indexes)
            }
        case .replace(let indexes, let values):
            let values = try accepted(values)
            try changeToMany(owner, property, .ordered(.replacement, indexes)) { elements in
                // The old element is let go of by the store (a nested
                // collection without recursion, through its box).
                for (index, value) in zip(indexes, values) where elements.indices.contains(index) {
                    elements[index] = value
                }
            }
        }
    }

    /// Applies a set mutation to the set behind a `mutableSetValue` proxy.
    public func mutateSet(_ object: KVOObject, keyPath: String, _ mutation: SetMutation, _ objects: ValueSet) throws {
        let (owner, property) = try proxyTarget(object, keyPath: keyPath)
        guard case .set(let current) = try proxyContents(.setProxy(object, keyPath: keyPath)) else { return }
        let (spec, result) = Self.setChange(current, mutation, objects)
        try changeToMany(owner, property, spec) { try storeWithoutNotifying(owner, property, .set(result)) }
    }

    /// What a set mutation adds and removes, and the set after it.
    static func setChange(_ current: ValueSet, _ mutation: SetMutation, _ objects: ValueSet) -> (ChangeSpec, ValueSet) {
        var added = ValueSet()
        var removed = ValueSet()
        var result = current
        switch mutation {
        case .union:
            for item in objects.elements where result.insert(item) { added.insert(item) }
            return (.unordered(.insertion, added: added, removed: removed), result)
        case .minus:
            // In one pass: removing each object in turn moved the rest each time.
            var gone = ValueSet()
            for item in objects.elements where current.contains(item) { gone.insert(item) }
            removed = gone
            result.subtract(gone)
            return (.unordered(.removal, added: added, removed: removed), result)
        case .intersect:
            for item in current.elements where !objects.contains(item) { removed.insert(item) }
            result.subtract(removed)
            return (.unordered(.removal, added: added, removed: removed), result)
        case .set:
            for item in current.elements where !objects.contains(item) { removed.insert(item) }
            for item in objects.elements where !current.contains(item) { added.insert(item) }
            return (.unordered(.replacement, added: added, removed: removed), objects)
        }
    }

    /// Mutates an ordered to-many relationship between will and did. A stored
    /// array is changed in place: it is moved out of its slot first, so it is
    /// uniquely referenced and an append costs O(1), not a copy of the array.
    private func changeToMany(
        _ owner: KVOObject, _ property: PropertyInfo, _ spec: ChangeSpec,
        _ mutate: (inout PackedArray) throws -> Void
    ) throws {
        try changeToMany(owner, property, spec) {
            if let slot = property.slot {
                var elements = PackedArray()
                if case .array(let current) = owner[slot: slot] {
                    owner[slot: slot] = .null
                    elements = current
                }
                defer { owner[slot: slot] = .array(elements) }
                try mutate(&elements)
            } else {
                guard case .array(var elements) = try proxyContents(.arrayProxy(owner, keyPath: property.name)) else {
                    return
                }
                try mutate(&elements)
                try store(owner, property, .array(elements))
            }
        }
    }

    /// Runs `apply`, wrapped in will/did when the key notifies automatically.
    private func changeToMany(
        _ owner: KVOObject, _ property: PropertyInfo, _ spec: ChangeSpec, apply: () throws -> Void
    ) throws {
        let key = property.name
        guard owner.observationInfo != nil, try owner.cls.automaticallyNotifies(property) else {
            if explains(about: owner) { explainSilentSet(owner, property) }
            return try apply()
        }
        try changeAutomatically(owner, key: key, spec, apply)
    }

    private func storeWithoutNotifying(_ owner: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        if property.slot != nil { return try storeIvar(owner, property, value) }
        try store(owner, property, value)
    }

    /// `willChangeValue(forKey:withSetMutation:using:)`: the added and removed
    /// objects are worked out now, against the current set.
    public func willChangeSet(_ object: KVOObject, key: String, _ mutation: SetMutation, _ objects: ValueSet) throws {
        var current = ValueSet()
        if case .set(let set) = try value(of: .object(object), forKey: key) { current = set }
        try willChange(object, key: key, Self.setChange(current, mutation, objects).0)
    }
}
