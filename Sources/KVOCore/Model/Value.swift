/// A value in a scenario: what a variable, a property or a KVC call holds.
///
/// Scalars (`bool`, `int`, `double`) are what KVC boxes as NSNumber and are never
/// nil; every other case is an object value and may be `.null`.
public enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// An NSNumber made from a float (`floatValue`): it describes itself
    /// with `%0.7g`.
    case float(Float)
    /// An NSDecimalNumber (`@sum`, `@avg`).
    indirect case decimal(DecimalNumber)
    /// Boxed, as the sets are: a String (16 bytes) or a ValueSet (16) inline
    /// would make every Value 24 bytes instead of 16, in every slot, array
    /// and variable.
    indirect case string(String)
    case object(KVOObject)
    /// Its elements 8 bytes each (`PackedArray`), not `[Value]`'s 16.
    case array(PackedArray)
    indirect case set(ValueSet)
    case context(Context)
    /// `.new`, `.old`, `.initial`, `.prior`.
    case option(ObservingOptions)
    /// `.union`, `.minus`, `.intersect`, `.set`.
    case setMutation(SetMutation)
    /// `mutableArrayValue(forKey:)` / `(forKeyPath:)`: mutations notify as the proxy does.
    indirect case arrayProxy(KVOObject, keyPath: String)
    /// `mutableSetValue(forKey:)` / `(forKeyPath:)`.
    indirect case setProxy(KVOObject, keyPath: String)
    /// `o.observationInfo`: printing it dumps the object's observances.
    case observationInfo(KVOObject)
    /// The change dictionary handed to `observeValue`.
    indirect case change(Change)
    /// The exception caught by `catch`, as `error`.
    indirect case exception(CocoaException)

    public var isNull: Bool {
        switch self {
        case .null: return true
        case .observationInfo(let object): return object.observationInfo == nil
        default: return false
        }
    }

    /// The numeric value for arithmetic and comparison, if this is a scalar.
    public var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .bool(let value): return value ? 1 : 0
        case .float(let value): return Double(value)
        case .decimal(let value): return value.doubleValue
        default: return nil
        }
    }

    /// `Int(value)` rounded toward zero, or nil where Swift's conversion
    /// would trap (NaN, infinities, out of range). Double(Int.max) rounds up
    /// to 2^63, so the upper bound is exclusive and written out exactly.
    public static func int(exactlyTruncating value: Double) -> Int? {
        guard value >= -9223372036854775808.0 && value < 9223372036854775808.0 else { return nil }
        return Int(value)
    }

    public var isScalar: Bool {
        switch self {
        case .int, .double, .bool, .float, .decimal: return true
        default: return false
        }
    }

    /// An array or a set (not a proxy).
    public var isCollection: Bool {
        switch self {
        case .array, .set: return true
        default: return false
        }
    }
}

/// A `context NAME` declaration: a unique pointer, compared by identity.
public final class Context: Sendable, CustomStringConvertible {
    public let name: String
    public init(name: String) { self.name = name }
    public var description: String { name }
}

/// NSKeyValueSetMutationKind.
public enum SetMutation: Sendable, Equatable {
    case union, minus, intersect, set
}
