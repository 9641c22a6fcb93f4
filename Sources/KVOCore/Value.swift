/// A value in a scenario: what a variable, a property or a KVC call holds.
///
/// Scalars (`bool`, `int`, `double`) are what KVC boxes as NSNumber and are never
/// nil; every other case is an object value and may be `.null`.
public enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case object(KVOObject)
    case array([Value])
    case set(ValueSet)
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
        default: return nil
        }
    }

    public var isScalar: Bool {
        switch self {
        case .int, .double, .bool: return true
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

/// An unordered collection of distinct values that keeps insertion order for
/// speed and sorts by description only when it is shown.
public struct ValueSet {
    public private(set) var elements: [Value] = []

    public init() {}
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        for value in values { insert(value) }
    }

    public var count: Int { elements.count }
    public func contains(_ value: Value) -> Bool { elements.contains { $0 == value } }

    @discardableResult
    public mutating func insert(_ value: Value) -> Bool {
        if contains(value) { return false }
        elements.append(value)
        return true
    }

    @discardableResult
    public mutating func remove(_ value: Value) -> Bool {
        guard let index = elements.firstIndex(where: { $0 == value }) else { return false }
        elements.remove(at: index)
        return true
    }

    /// Elements in the order they are printed: sorted by description.
    public var sorted: [Value] {
        elements.sorted { $0.collectionDescription < $1.collectionDescription }
    }
}

extension Value: Equatable {
    /// `==` of the scenario language: objects and contexts by identity, numbers by
    /// value across Int, Double and Bool (as NSNumber compares), the rest by value.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a == b
        case (.object(let a), .object(let b)): return a === b
        case (.array(let a), .array(let b)): return a == b
        case (.set(let a), .set(let b)):
            return a.count == b.count && a.elements.allSatisfy { b.contains($0) }
        case (.context(let a), .context(let b)): return a === b
        case (.option(let a), .option(let b)): return a == b
        case (.setMutation(let a), .setMutation(let b)): return a == b
        case (.arrayProxy(let a, let p), .arrayProxy(let b, let q)): return a === b && p == q
        case (.setProxy(let a, let p), .setProxy(let b, let q)): return a === b && p == q
        case (.observationInfo(let a), .observationInfo(let b)): return a === b
        case (.observationInfo(let a), .null), (.null, .observationInfo(let a)):
            return a.observationInfo == nil
        case (.change(let a), .change(let b)): return a == b
        case (.exception(let a), .exception(let b)): return a == b
        default:
            if let a = lhs.number, let b = rhs.number { return a == b }
            return false
        }
    }
}

/// Observing options, printed in the order new, old, initial, prior.
public struct ObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let new = ObservingOptions(rawValue: 1)
    public static let old = ObservingOptions(rawValue: 2)
    public static let initial = ObservingOptions(rawValue: 4)
    public static let prior = ObservingOptions(rawValue: 8)

    public static let all: [(ObservingOptions, String)] = [
        (.new, "new"), (.old, "old"), (.initial, "initial"), (.prior, "prior"),
    ]
    public var names: [String] { Self.all.filter { contains($0.0) }.map(\.1) }
}

/// NSKeyValueSetMutationKind.
public enum SetMutation: Sendable, Equatable {
    case union, minus, intersect, set
}

extension Value {
    /// Releases a value without recursion: Swift's own release of an array of
    /// arrays recurses once per level, so a deeply nested array built by a
    /// scenario would overflow the stack when dropped. Taking each array out of
    /// its holder first leaves it uniquely referenced; emptying it into a work
    /// list frees it one level at a time.
    public static func dispose(_ value: inout Value) {
        guard case .array = value else { return }
        var work: [Value] = []
        work.append(value)
        value = .null
        while !work.isEmpty {
            // Take the last entry's array out in place: the entry becomes nil, so
            // the array (if nobody else holds it) has exactly one holder here.
            var elements: [Value] = []
            let last = work.count - 1
            if case .array = work[last] {
                swapArray(&work[last], into: &elements)
            }
            work.removeLast()
            // Only an array nobody else holds is taken apart; a shared one is
            // just let go (its other holder keeps it, so nothing recurses).
            guard isUnique(&elements) else { continue }
            while !elements.isEmpty {
                let index = elements.count - 1
                if case .array = elements[index] {
                    work.append(.null)
                    swap(&work[work.count - 1], &elements[index])
                }
                elements.removeLast()
            }
        }
    }

    /// Moves the array held by `slot` into `elements`, leaving `slot` nil.
    private static func swapArray(_ slot: inout Value, into elements: inout [Value]) {
        var taken = Value.null
        swap(&taken, &slot)
        if case .array(let array) = taken {
            taken = .null
            elements = array
        }
    }

    /// Whether the array's storage has no other holder. An Array is one
    /// reference to its storage object; it is inspected in place, without the
    /// retain a cast would add.
    private static func isUnique(_ elements: inout [Value]) -> Bool {
        withUnsafeMutablePointer(to: &elements) { pointer in
            pointer.withMemoryRebound(to: AnyObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
        }
    }
}

/// Where a collection was reached: an array or set read from a property is
/// named after it in exception texts (`<__NSArrayM dept.employees>`), where
/// Apple prints its address.
public struct CollectionOwner {
    public let object: KVOObject
    public let key: String

    public init(object: KVOObject, key: String) {
        self.object = object
        self.key = key
    }

    /// The owner of a `mutableArrayValue` / `mutableSetValue` proxy's collection.
    init?(proxy: Value) {
        switch proxy {
        case .arrayProxy(let object, let keyPath), .setProxy(let object, let keyPath):
            self.init(object: object, key: keyPath)
        default:
            return nil
        }
    }

    public var name: String { "\(object.name).\(key)" }
}
