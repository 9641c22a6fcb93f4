import KVOCore

/// How an `observe` handler receives the engine's change. The callback is
/// made once per observation: `observe` is generic over the value's type,
/// which the runtime cannot specialise for a program's types, and making an
/// `NSKeyValueObservedChange<Value>` in unspecialised code looks up its
/// metadata and `Optional<Value>`'s on every notification (about 5,000
/// instructions of a B1 set). For the value types of most observed
/// properties the callback is one of the specialisations below.
enum _KVODelivery {
    static func callback<Value>(
        _ handler: @escaping (NSObject, NSKeyValueObservedChange<Value>) -> Void
    ) -> (NSObject?, Change) -> Void {
        if let typed = handler as? (NSObject, NSKeyValueObservedChange<Int>) -> Void { return make(typed) }
        if let typed = handler as? (NSObject, NSKeyValueObservedChange<Double>) -> Void { return make(typed) }
        if let typed = handler as? (NSObject, NSKeyValueObservedChange<Bool>) -> Void { return make(typed) }
        if let typed = handler as? (NSObject, NSKeyValueObservedChange<String>) -> Void { return make(typed) }
        if let typed = handler as? (NSObject, NSKeyValueObservedChange<String?>) -> Void { return make(typed) }
        return make(handler)
    }

    private static func make<Value>(
        _ handler: @escaping (NSObject, NSKeyValueObservedChange<Value>) -> Void
    ) -> (NSObject?, Change) -> Void {
        { observed, change in
            guard let observed else { return }
            handler(
                observed,
                NSKeyValueObservedChange(
                    kind: NSKeyValueChange(rawValue: UInt(change.kind.rawValue)) ?? .setting,
                    newValue: change.new.flatMap { _KVOBridge.cast($0, to: Value.self) },
                    oldValue: change.old.flatMap { _KVOBridge.cast($0, to: Value.self) },
                    indexes: change.indexes.map { IndexSet($0) },
                    isPrior: change.isPrior))
        }
    }
}
