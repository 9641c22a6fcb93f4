import KVOCore

/// How Swift's `print` shows values, for Swift source: Doubles always with a
/// fraction (`200.0`), Bools as `true`/`false`, arrays as `[1, 2]`, strings
/// quoted inside collections and optionals, and `Optional(…)` around values
/// Swift types as optional.
enum SwiftDescription {
    /// How an optional's payload prints: a Swift-typed value, or an `Any`
    /// from KVC or a change dictionary (an NSNumber prints as Foundation does).
    enum Optionality {
        case typed
        case bridged
    }

    static func describe(_ value: Value, optional: Optionality?) -> String {
        guard let optional else { return describe(value, nested: false) }
        if value.isNull { return "nil" }
        switch optional {
        case .typed: return "Optional(\(describe(value, nested: true)))"
        case .bridged: return "Optional(\(bridged(value)))"
        }
    }

    /// An `Any` holding what Foundation handed over: numbers print as NSNumber does.
    static func bridged(_ value: Value) -> String {
        switch value {
        case .int, .double, .bool, .float, .decimal: return value.printDescription
        case .string(let text): return text
        default: return describe(value, nested: true)
        }
    }

    static func describe(_ value: Value, nested: Bool) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return "\(number)"
        case .string(let text): return nested ? text.debugDescription : text
        case .array(let elements):
            return "[" + elements.map { describe($0, nested: true) }.joined(separator: ", ") + "]"
        case .set(let set): return "[" + set.sorted.map { describe($0, nested: true) }.joined(separator: ", ") + "]"
        case .option(let options): return "NSKeyValueObservingOptions(rawValue: \(options.rawValue))"
        case .change(let change): return describe(change)
        case .exception(let exception): return exception.reason
        default: return value.printDescription
        }
    }

    /// `NSKeyValueObservedChange<Double>(kind: __C.NSKeyValueChange, newValue: Optional(200.0), …)` for
    /// an `observe` handler's change; `Optional([__C.NSKeyValueChangeKey(_rawValue: kind): 1, …])` for
    /// the dictionary `observeValue` receives (an optional parameter).
    static func describe(_ change: Change) -> String {
        if let type = change.observedValueType {
            func field(_ value: Value?) -> String {
                guard let value else { return "nil" }
                if type.hasPrefix("Optional<") {
                    return value.isNull ? "Optional(nil)" : "Optional(Optional(\(describe(value, nested: true))))"
                }
                return "Optional(\(describe(value, nested: true)))"
            }
            let indexes = change.indexes.map { "Optional(\($0.count) indexes)" } ?? "nil"
            return "NSKeyValueObservedChange<\(type)>(kind: __C.NSKeyValueChange, newValue: \(field(change.new)), "
                + "oldValue: \(field(change.old)), indexes: \(indexes), isPrior: \(change.isPrior))"
        }
        func key(_ name: String) -> String { "__C.NSKeyValueChangeKey(_rawValue: \(name))" }
        var entries: [String] = []
        if let indexes = change.indexes { entries.append("\(key("indexes")): \(indexes.count) indexes") }
        entries.append("\(key("kind")): \(change.kind.rawValue)")
        if let new = change.new { entries.append("\(key("new")): \(bridgedEntry(new))") }
        if change.isPrior { entries.append("\(key("notificationIsPrior")): 1") }
        if let old = change.old { entries.append("\(key("old")): \(bridgedEntry(old))") }
        return "Optional([" + entries.joined(separator: ", ") + "])"
    }

    /// A value inside a printed `[NSKeyValueChangeKey: Any]`: nil is NSNull.
    private static func bridgedEntry(_ value: Value) -> String {
        value.isNull ? "<null>" : bridged(value)
    }
}
