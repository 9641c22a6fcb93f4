/// The declared type of a property.
public indirect enum ValueType: Equatable, CustomStringConvertible {
    case int, double, bool, string, any
    case object(String)
    case array(ValueType)
    case set(ValueType)

    /// The default of a stored property declared without a value.
    public var zeroValue: Value {
        switch self {
        case .int: return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .any, .object: return .null
        case .array: return .array([])
        case .set: return .set(ValueSet())
        }
    }

    public var isScalar: Bool {
        switch self {
        case .int, .double, .bool: return true
        default: return false
        }
    }

    public var isToMany: Bool {
        switch self {
        case .array, .set: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .int: return "Int"
        case .double: return "Double"
        case .bool: return "Bool"
        case .string: return "String"
        case .any: return "Any"
        case .object(let name): return name
        case .array(let element): return "[\(element)]"
        case .set(let element): return "Set<\(element)>"
        }
    }

    /// Whether `value` is stored as it is: a scalar or a string into its own
    /// type. Asked before `accept`, whose switch over the pair copies both
    /// enums, on every set of a stored property.
    @inline(__always)
    public func acceptsUnchanged(_ value: Value) -> Bool {
        switch value {
        case .int: if case .int = self { return true }
        case .double: if case .double = self { return true }
        case .bool: if case .bool = self { return true }
        case .string: if case .string = self { return true }
        default: break
        }
        return false
    }

    /// `element` stored into `elements` (appended, or replacing one), an
    /// array of this type, as `accept` converts it. Nil when `accept` would
    /// refuse it, or would convert or refuse an element already there
    /// (asked only when `checkingElements`: a property whose values KVC
    /// never stored unchecked holds accepted elements). For the element
    /// types whose check is a tag's (Int, Double, Bool, String) or none
    /// (`Any`); nil for the rest.
    public func acceptStoring(_ element: Value, into elements: PackedArray, checkingElements: Bool) -> Value? {
        guard case .array(let type) = self else { return self == .any ? element : nil }
        switch type {
        case .any: return element
        case .int, .double, .bool, .string:
            guard let accepted = type.accept(element) else { return nil }
            if checkingElements && !elements.allSatisfy({ type.acceptsUnchanged($0) }) { return nil }
            return accepted
        default: return nil
        }
    }

    /// `added` appended to `elements`, an array of this type, each converted
    /// as `accept` converts it, under the same terms as
    /// `acceptStoring(_:into:checkingElements:)`: nil when one would be
    /// refused.
    public func acceptStoring(
        contentsOf added: PackedArray, into elements: PackedArray, checkingElements: Bool
    )
        -> PackedArray?
    {
        guard case .array(let type) = self else { return self == .any ? added : nil }
        switch type {
        case .any: return added
        case .int, .double, .bool, .string:
            if checkingElements && !elements.allSatisfy({ type.acceptsUnchanged($0) }) { return nil }
            if added.allSatisfy({ type.acceptsUnchanged($0) }) { return added }
            var converted = PackedArray()
            converted.reserveCapacity(added.count)
            for item in added {
                guard let accepted = type.accept(item) else { return nil }
                converted.append(accepted)
            }
            return converted
        default: return nil
        }
    }

    /// Whether `accept` may give back another value than it was given (an
    /// Int as a Double, a collection's elements converted); for the other
    /// types it gives back the value itself or nil.
    var mayConvert: Bool {
        switch self {
        case .double, .array, .set: return true
        case .int, .bool, .string, .any, .object: return false
        }
    }

    /// The value stored for `value`, converting Int to Double where a Double is
    /// declared; nil when the type does not fit.
    public func accept(_ value: Value) -> Value? {
        switch (self, value) {
        case (.any, _): return value
        case (.int, .int), (.double, .double), (.bool, .bool): return value
        case (.double, .int(let int)): return .double(Double(int))
        case (.double, .float), (.double, .decimal): return value.number.map(Value.double)
        case (.string, .string), (.string, .null): return value
        case (.object, .null), (.array, .null), (.set, .null): return value
        case (.object(let name), .object(let object)):
            return object.cls.lineage.contains { $0.name == name } ? value : nil
        case (.array(let element), .array(let values)):
            if element == .any { return value }
            // Written back only where an element may change (an Int into
            // a Double, a nested collection): a write copies a shared
            // array, and every set of an `[Int]` property checks its array.
            var converted = values
            for index in values.indices {
                let item = values[index]
                if element.acceptsUnchanged(item) { continue }
                guard let accepted = element.accept(item) else { return nil }
                if element.mayConvert { converted[index] = accepted }
            }
            return .array(converted)
        case (.array, .arrayProxy), (.set, .setProxy): return nil
        case (.set(let element), .set(let set)):
            for item in set.elements where element.accept(item) == nil { return nil }
            return value
        case (.set(let element), .array(let values)):
            var set = ValueSet()
            for item in values {
                guard let accepted = element.accept(item) else { return nil }
                set.insert(accepted)
            }
            return .set(set)
        default: return nil
        }
    }
}
