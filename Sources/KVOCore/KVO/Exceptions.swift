/// Apple's exception names and reason texts (docs/language.md#exceptions), pointers replaced by names.
public enum Exceptions {
    public static let range = "NSRangeException"
    public static let unknownKey = "NSUnknownKeyException"
    public static let invalidArgument = "NSInvalidArgumentException"
    public static let internalInconsistency = "NSInternalInconsistencyException"

    /// `--legacy-dealloc`: Foundation's exception before macOS 10.13.
    static func deallocatedWhileObserved(_ object: KVOObject, observationInfo: String) -> (String, String) {
        (
            internalInconsistency,
            "An instance \(object.name) of class \(object.cls.runtimeName) was deallocated "
                + "while key value observers were still registered with it. Current observation info: \(observationInfo)"
        )
    }

    public static func cannotRemove(observer: KVOObject, keyPath: String, from object: KVOObject) -> (String, String) {
        (
            range,
            "Cannot remove an observer \(observer.pointerDescription) for the key path \"\(keyPath)\" from \(object.pointerDescription) because it is not registered as an observer."
        )
    }

    public static func undefinedKeyGet(_ receiver: String, key: String) -> (String, String) {
        undefinedKey(receiver, "valueForUndefinedKey:", key: key)
    }

    public static func undefinedKeySet(_ receiver: String, key: String) -> (String, String) {
        undefinedKey(receiver, "setValue:forUndefinedKey:", key: key)
    }

    /// NSObject's two undefined-key methods raise the same words.
    private static func undefinedKey(_ receiver: String, _ selector: String, key: String) -> (String, String) {
        (unknownKey, "[\(receiver) \(selector)]: this class is not key value coding-compliant for the key \(key).")
    }

    public static func setNil(_ object: KVOObject, key: String) -> (String, String) {
        (
            invalidArgument,
            "[\(object.pointerDescription) setNilValueForKey]: could not set nil as the value for the key \(key)."
        )
    }

    public static func observeCollection(_ receiver: String, keyPath: String) -> (String, String) {
        (
            invalidArgument,
            "[\(receiver) addObserver:forKeyPath:options:context:] is not supported. Key path: \(keyPath)"
        )
    }

    /// `-[NSArray removeObserver:forKeyPath:]` and its `context:` form.
    public static func removeObserverFromCollection(
        _ receiver: String, keyPath: String, withContext: Bool
    ) -> (String, String) {
        let selector = withContext ? "removeObserver:forKeyPath:context:" : "removeObserver:forKeyPath:"
        return (invalidArgument, "[\(receiver) \(selector)] is not supported. Key path: \(keyPath)")
    }

    /// An `@word` followed by a path that names no operator.
    public static func unimplementedOperator(_ receiver: String, operation: String) -> (String, String) {
        (invalidArgument, "[\(receiver) valueForKeyPath:]: this class does not implement the \(operation) operation.")
    }

    public static func unhandled(
        observer: KVOObject, keyPath: String, object: KVOObject, change: Change, context: Context?
    ) -> (String, String) {
        (
            internalInconsistency,
            "\(observer.description): An -observeValueForKeyPath:ofObject:change:context: message was received but not handled.\nKey path: \(keyPath)\nObserved object: \(object.description)\nChange: \(change.dictionaryDescription)\nContext: \(context?.name ?? "0x0")"
        )
    }

    /// `*** -[NSMutableArray objectAtIndex:]: index 5 beyond bounds [0 .. 2]`.
    public static func beyondBounds(_ selector: String, index: Int, count: Int) -> (String, String) {
        let bounds = count == 0 ? "for empty array" : "[0 .. \(count - 1)]"
        let shown = index < 0 ? String(UInt(bitPattern: index)) : String(index)
        return (range, "*** -[NSMutableArray \(selector)]: index \(shown) beyond bounds \(bounds)")
    }
}
