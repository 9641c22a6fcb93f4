import KVOCore

/// A Swift value that holds others (an Optional, an Array, a Set),
/// converted to the engine's value by its own type: one protocol cast in
/// `_KVOBridge.value`, where the casts it replaces (`as? NSObject`,
/// `as? [Any]`, `as? Set<AnyHashable>`) bridged a whole Swift collection to
/// an `NSArray` or `NSSet` of boxed elements only to learn that it was none
/// of kvo-run's objects (about 1 µs an element). The way back, an engine
/// collection to a Swift `[Int]` or `Set<String>`, is `_KVOSwiftArray` and
/// `_KVOSwiftSet` below.
protocol _KVOSwiftContainer {
    var _kvoEngineValue: Value { get }
}

extension Optional: _KVOSwiftContainer {
    var _kvoEngineValue: Value {
        switch self {
        case .some(let wrapped): return _KVOBridge.value(wrapped as Any)
        case .none: return .null
        }
    }
}

extension Array: _KVOSwiftContainer {
    /// The elements as `value(_:)` converts each, the four common element
    /// types without a cast per element. A property's getter, a proxy's
    /// `count` and a change's old value each convert the whole array.
    var _kvoEngineValue: Value {
        if Element.self == Int.self {
            return .array(PackedArray(_sameTypeCast(self, to: [Int].self).lazy.map(Value.int)))
        }
        if Element.self == Double.self {
            return .array(PackedArray(_sameTypeCast(self, to: [Double].self).lazy.map(Value.double)))
        }
        if Element.self == Bool.self {
            return .array(PackedArray(_sameTypeCast(self, to: [Bool].self).lazy.map(Value.bool)))
        }
        if Element.self == String.self {
            return .array(PackedArray(_sameTypeCast(self, to: [String].self).lazy.map(Value.string)))
        }
        return .array(PackedArray(lazy.map { _KVOBridge.value($0 as Any) }))
    }
}

extension Set: _KVOSwiftContainer {
    /// The elements as `value(_:)` converts each (as `Set<AnyHashable>`
    /// did: `AnyHashable`'s base), Int and String without a cast each.
    var _kvoEngineValue: Value {
        if Element.self == Int.self {
            return .set(ValueSet(_sameTypeCast(self, to: Set<Int>.self).lazy.map(Value.int)))
        }
        if Element.self == String.self {
            return .set(ValueSet(_sameTypeCast(self, to: Set<String>.self).lazy.map(Value.string)))
        }
        return .set(ValueSet(lazy.map { _KVOBridge.value(AnyHashable($0).base) }))
    }
}

/// A Swift array type that an engine array converts to element by element.
protocol _KVOSwiftArray {
    /// The array, or nil when an element is not exactly of the element type
    /// (a double for `[Int]`, a foreign value for `[String]`): those go
    /// through Objective-C's bridging, which decides as a Mac does.
    static func _kvoArray(from elements: PackedArray) -> Self?
}

extension Array: _KVOSwiftArray {
    /// Through `NSNumber` and `as? [Int]` an `.int(n)` element is `n`, a
    /// `.bool(b)` for `[Bool]` is `b`, and a string that holds no foreign
    /// value is itself: the same elements, without a box each.
    static func _kvoArray(from elements: PackedArray) -> [Element]? {
        // Each element type's loop is a function of its own, not a generic
        // one: this extension is not specialised, and a generic loop here
        // moved every element through value witnesses.
        if Element.self == Int.self { return _KVOTypedElements.ints(elements).map { _sameTypeCast($0, to: Self.self) } }
        if Element.self == Double.self {
            return _KVOTypedElements.doubles(elements).map { _sameTypeCast($0, to: Self.self) }
        }
        if Element.self == Bool.self {
            return _KVOTypedElements.bools(elements).map { _sameTypeCast($0, to: Self.self) }
        }
        if Element.self == String.self {
            return _KVOTypedElements.strings(elements).map { _sameTypeCast($0, to: Self.self) }
        }
        return nil
    }
}

/// A Swift set type that an engine set converts to element by element.
protocol _KVOSwiftSet {
    /// The set, or nil when an element is not exactly of the element type:
    /// those go through Objective-C's bridging, as for `_KVOSwiftArray`.
    static func _kvoSet(from set: ValueSet) -> Self?
}

extension Set: _KVOSwiftSet {
    static func _kvoSet(from set: ValueSet) -> Set<Element>? {
        if Element.self == Int.self {
            return _KVOTypedElements.ints(set.elements).map { _sameTypeCast(Set<Int>($0), to: Self.self) }
        }
        if Element.self == String.self {
            return _KVOTypedElements.strings(set.elements).map { _sameTypeCast(Set<String>($0), to: Self.self) }
        }
        return nil
    }
}

/// The element loops of `_kvoArray(from:)` and `_kvoSet(from:)`, one
/// concrete type each (specialised for `PackedArray` and `[Value]`).
enum _KVOTypedElements {
    static func ints<C: Collection<Value>>(_ elements: C) -> [Int]? {
        exactly(elements) { if case .int(let number) = $0 { number } else { nil } }
    }

    static func doubles<C: Collection<Value>>(_ elements: C) -> [Double]? {
        exactly(elements) { if case .double(let number) = $0 { number } else { nil } }
    }

    static func bools<C: Collection<Value>>(_ elements: C) -> [Bool]? {
        exactly(elements) { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    static func strings<C: Collection<Value>>(_ elements: C) -> [String]? {
        exactly(elements) { (value: Value) -> String? in
            guard case .string(let text) = value, _KVOBridge.foreignValue(text) == nil else { return nil }
            return text
        }
    }

    /// Specialised for each caller's `E` (called from concrete code).
    @inline(__always)
    private static func exactly<C: Collection<Value>, E>(_ elements: C, _ element: (Value) -> E?) -> [E]? {
        var result: [E] = []
        result.reserveCapacity(elements.count)
        for value in elements {
            guard let converted = element(value) else { return nil }
            result.append(converted)
        }
        return result
    }
}
