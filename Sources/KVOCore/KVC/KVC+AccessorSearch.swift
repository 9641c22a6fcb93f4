extension KVORuntime {
    // MARK: Accessor search

    /// The rest of Apple's *Accessor Search Pattern* for `valueForKey:`, after
    /// a plain property: the zero-argument accessors `get<Key>`, `<key>`,
    /// `is<Key>`, `_<key>`; then `countOf<Key>` with
    /// `objectIn<Key>AtIndex:` (an array of what they give); then the ivars
    /// `_<key>`, `_is<Key>`, `<key>`, `is<Key>`. Nil when nothing answers.
    func searchGetter(_ object: KVOObject, key: String) throws -> Value? {
        let cls = object.cls
        let capital = KeyPaths.capitalized(key)
        for name in ["get" + capital, key, "is" + capital, "_" + key] {
            switch cls.getter(named: name) {
            case .property(let property)?: return try get(object, property)
            case .method(let method)?: return try method(object)
            case nil: if name == "self" { return .object(object) }
            }
        }
        if let count = cls.getter(named: "countOf" + capital),
            let objectAt = cls.oneArgumentMethod("objectIn" + capital + "AtIndex")
        {
            let counted: Value
            switch count {
            case .property(let property): counted = try get(object, property)
            case .method(let method): counted = try method(object)
            }
            guard let number = counted.number, let total = Value.int(exactlyTruncating: number), total >= 0 else {
                throw ScriptError.runtime(
                    "countOf\(capital) of \(object.description) gave \(counted.collectionDescription); it must give a count (an Int of 0 or more)"
                )
            }
            return try withResultAllowance {
                try reserveResult(total, "the array of countOf\(capital) and objectIn\(capital)AtIndex")
                var elements: [Value] = []
                elements.reserveCapacity(total)
                for index in 0..<total {
                    try work.charge(1)
                    elements.append(try objectAt(object, .int(index)))
                }
                return .array(elements)
            }
        }
        for name in ["_" + key, "_is" + capital, key, "is" + capital] {
            if let ivar = cls.ivar(named: name) {
                try object.checkAlive()
                return ivar.slot.map { object[slot: $0] } ?? .null
            }
        }
        return nil
    }

    /// The rest of the search for `setValue:forKey:`: the method
    /// `set<Key>:` (found by the caller), then the ivars `_<key>`,
    /// `_is<Key>`, `<key>`, `is<Key>`. Either notifies observers of `key`
    /// itself (a setter method is KVO-compliant for the key it sets; an
    /// ivar reached through the key is changed under that key's name).
    /// False when nothing takes the value.
    func setThroughSearch(
        _ value: Value, of object: KVOObject, forKey key: String,
        setterMethod: ((KVOObject, Value) throws -> Value)?
    ) throws -> Bool {
        if let setterMethod {
            try notifyingAutomatically(object, key: key) { _ = try setterMethod(object, value) }
            return true
        }
        let capital = KeyPaths.capitalized(key)
        for name in ["_" + key, "_is" + capital, key, "is" + capital] {
            guard let ivar = object.cls.ivar(named: name) else { continue }
            if ivar.type.isScalar && value.isNull {
                if let hook = object.cls.hook({ $0.setNilValueForKey }) {
                    try hook(object, key)
                    return true
                }
                throw exception(Exceptions.setNil(object, key: key))
            }
            let coerced = try coerce(value, to: ivar.type, key: key, of: object)
            try notifyingAutomatically(object, key: key) {
                try object.checkAlive()
                guard let slot = ivar.slot else { return }
                object[slot: slot] = try checked(coerced, for: ivar, of: object, asKVC: true)
            }
            return true
        }
        return false
    }

    /// Runs `body` (a change of `key` by other means than its property's
    /// setter) inside will/did for `key` when the key notifies automatically
    /// and the object is observed, as KVO's overridden setter does.
    public func notifyingAutomatically(_ object: KVOObject, key: String, _ body: () throws -> Void) throws {
        guard object.observationInfo != nil, try object.cls.automaticallyNotifies(forKey: key) else {
            return try body()
        }
        try changeAutomatically(object, key: key, .setting, body)
    }

    /// `body` between an automatic will and did phase (KVO's generated
    /// setter, a collection proxy): a change `body` abandons by throwing is
    /// dropped, so no key stays half-changed.
    func changeAutomatically(
        _ object: KVOObject, key: String, _ spec: ChangeSpec, _ body: () throws -> Void
    ) throws {
        if explains { explainAutomatic = true }
        do {
            try willChange(object, key: key, spec)
            try body()
        } catch {
            discardPending(object, key: key)
            throw error
        }
        try didChange(object, key: key)
    }

    /// `setValue(_:forKeyPath:)`: the setter of the last object on the path.
    public func setValue(_ value: Value, of target: Value, forKeyPath keyPath: String) throws {
        var path = KeyPaths.components(keyPath)
        let last = path.removeLast()
        var current = target
        for key in path { current = try self.value(of: current, forKey: key) }
        try setValue(value, of: current, forKey: last)
    }

    /// KVC's unboxing: numbers convert between Int, Double and Bool; a string
    /// gives the number it starts with, or 0.
    func coerce(_ value: Value, to type: ValueType, key: String, of object: KVOObject) throws -> Value {
        switch (type, value) {
        case (.int, _):
            if case .int = value { return value }
            if case .string(let string) = value { return .int(Value.nsStringIntegerValue(string)) }
            guard let number = value.kvcNumber else { break }
            guard let int = Value.int(exactlyTruncating: number) else {
                throw ScriptError.runtime(
                    "\(Value.describe(double: number)) does not fit the Int property '\(key)' of \(object.cls.name); Int holds -9223372036854775808 through 9223372036854775807"
                )
            }
            return .int(int)
        case (.double, _):
            if let number = value.kvcNumber { return .double(number) }
        case (.bool, _):
            if case .string(let string) = value { return .bool(Value.nsStringBoolValue(string)) }
            if let number = value.kvcNumber { return .bool(number != 0) }
        default:
            break
        }
        return value
    }
}
