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
    public var debugDescription: String { "Foundation." + description }
}
