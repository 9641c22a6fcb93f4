/// A Cocoa exception (NSException) with Apple's name and reason text.
public struct CocoaException: Sendable {
    public let name: String
    public let reason: String
    /// Handlers running when it was raised: the `depth` of its event.
    public var depth: Int
    /// The statement that raised it, stamped by the interpreter on the
    /// innermost statement it unwinds through (nil until then), so that an
    /// uncaught one can say where it came from.
    public var line: Int?
    public var column: Int?
    /// An `NSError` thrown by Swift code travels as an exception named
    /// "NSError" whose reason is its description; these are its fields.
    public var error: NSErrorFields?

    public init(name: String, reason: String, depth: Int = 0) {
        self.name = name
        self.reason = reason
        self.depth = depth
    }
}

/// What `error.domain`, `error.code` and `error.localizedDescription` read.
public struct NSErrorFields: Sendable {
    public var domain: String
    public var code: Int?
    /// `NSLocalizedDescriptionKey`'s value, nil without one.
    public var description: String?
    public init(domain: String, code: Int?, description: String?) {
        self.domain = domain
        self.code = code
        self.description = description
    }
}

extension CocoaException: Equatable {
    /// The same exception whether or not it has been located yet: where it
    /// was raised is a note about it, not part of what it is (a caught error
    /// compares by name and reason, as an NSException's does).
    public static func == (a: CocoaException, b: CocoaException) -> Bool {
        a.name == b.name && a.reason == b.reason && a.depth == b.depth
    }
}

/// A runtime error that is not a Cocoa exception (docs/language.md#diagnostics): ends the run with
/// status 1. The interpreter attaches the location of the statement.
public struct RuntimeFailure: Equatable, Sendable {
    /// The limit a run went past. The message does not say how to raise it:
    /// that depends on the front end (a command-line flag, a REPL command),
    /// which adds its own advice.
    public enum Limit: Sendable {
        /// Nesting of notifications and calls (`maxDepth`).
        case depth
        /// Statements executed (`maxSteps`).
        case steps
        /// Nesting the interpreter's stack allows, below `maxDepth`.
        case stack
    }

    public var message: String
    public var line: Int?
    public var column: Int?
    public var limit: Limit?
    /// The innermost notifications a depth failure unwound through
    /// (`object.keyPath`, innermost first): what repeats in a runaway loop.
    public var notificationTrail: [String] = []
    public init(_ message: String, line: Int? = nil, column: Int? = nil, limit: Limit? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.limit = limit
    }
}

/// What unwinds a scenario: a Cocoa exception or a runtime error.
public enum ScriptError: Error {
    case exception(CocoaException)
    case runtime(RuntimeFailure)

    public static func runtime(_ message: String) -> ScriptError { .runtime(RuntimeFailure(message)) }
}

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
        (
            unknownKey,
            "[\(receiver) valueForUndefinedKey:]: this class is not key value coding-compliant for the key \(key)."
        )
    }

    public static func undefinedKeySet(_ receiver: String, key: String) -> (String, String) {
        (
            unknownKey,
            "[\(receiver) setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key \(key)."
        )
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
