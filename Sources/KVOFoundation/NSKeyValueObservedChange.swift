import KVOCore

/// The change an `observe` handler receives (the Swift overlay's struct).
public struct NSKeyValueObservedChange<Value>: CustomStringConvertible, CustomDebugStringConvertible {
    public typealias Kind = NSKeyValueChange
    public let kind: Kind
    public let newValue: Value?
    public let oldValue: Value?
    public let indexes: IndexSet?
    public let isPrior: Bool

    public var description: String {
        func field(_ value: Value?) -> String {
            guard let value else { return "nil" }
            return "Optional(\(String(reflecting: value)))"
        }
        let indexText = indexes.map { "Optional(\($0.count) indexes)" } ?? "nil"
        return
            "NSKeyValueObservedChange<\(Value.self)>(kind: __C.NSKeyValueChange, newValue: \(field(newValue)), oldValue: \(field(oldValue)), indexes: \(indexText), isPrior: \(isPrior))"
    }
    /// `debugPrint` names the types in full, as `String(reflecting:)` does on
    /// a Mac: `Foundation.NSKeyValueObservedChange<Swift.Int>(…)`.
    public var debugDescription: String {
        let short = "NSKeyValueObservedChange<\(Value.self)>"
        // Foundation's Objective-C classes are the Clang importer's `__C.` module on a Mac.
        let value = _typeName(Value.self, qualified: true).replacingOccurrences(of: "KVOFoundation.", with: "__C.")
        let full = "Foundation.NSKeyValueObservedChange<\(value)>"
        return full + description.dropFirst(short.count)
    }
}
