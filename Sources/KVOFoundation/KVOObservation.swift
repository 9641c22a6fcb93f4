import KVOCore

/// `NSKeyValueObservingOptions`.
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 8)

    var _engineOptions: ObservingOptions { ObservingOptions(rawValue: UInt8(truncatingIfNeeded: rawValue & 15)) }
}

/// `NSKeyValueChange`: Swift prints an imported enum by its type name alone.
public enum NSKeyValueChange: UInt, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case setting = 1, insertion = 2, removal = 3, replacement = 4
    public var description: String { "NSKeyValueChange" }
    public var debugDescription: String { "__C.NSKeyValueChange" }
}

/// `NSKeyValueChangeKey`, printed as Swift prints the imported struct.
public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let kindKey = NSKeyValueChangeKey("kind")
    public static let newKey = NSKeyValueChangeKey("new")
    public static let oldKey = NSKeyValueChangeKey("old")
    public static let indexesKey = NSKeyValueChangeKey("indexes")
    public static let notificationIsPriorKey = NSKeyValueChangeKey("notificationIsPrior")
    public var description: String { "NSKeyValueChangeKey(_rawValue: \(rawValue))" }
    public var debugDescription: String { "__C.NSKeyValueChangeKey(_rawValue: \(rawValue))" }

    /// Where the key sits in Apple's printed dictionary (SPEC §6.3's order).
    var _order: Int {
        ["indexes", "kind", "new", "notificationIsPrior", "old"].firstIndex(of: rawValue) ?? 5
    }
}

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

/// What `observe` is declared on, as in the overlay: `Self` is the
/// receiver's static type.
public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving {
    /// Swift's block KVO (SPEC §11.2): a hidden observer of the key path's
    /// string, with a nil context; the token ends it when it is invalidated
    /// or freed.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let process = _KVOProcess.shared
        guard let object = self as? NSObject else {
            process.fail("observe(_:options:changeHandler:) needs an NSObject", column: process.statementColumn)
        }
        let name = process.keyPathNames[keyPath]
        let firstKey = name.map { String($0.split(separator: ".").first ?? "") }
        let visible = firstKey.flatMap { object._kvoObject.cls.property(named: $0) }.map { !$0.kvcHidden } ?? false
        guard let path = name, visible else {
            process.fail(
                "Fatal error: Could not extract a String from KeyPath \\\(Self.self).\(name ?? "<unknown>")",
                column: process.statementColumn)
        }
        // The object a change is delivered with is the receiver, a `Self`:
        // checked by identity, it is handed over without `as? Self`, which in
        // this unspecialised code looks up `Optional<Self>`'s metadata on
        // every notification.
        let receiver = ObjectIdentifier(object)
        let handler: (NSObject, NSKeyValueObservedChange<Value>) -> Void
        if Self.self is AnyObject.Type {
            handler = { observed, change in
                guard ObjectIdentifier(observed) == receiver else { return }
                changeHandler(unsafeBitCast(observed, to: Self.self), change)
            }
        } else {
            handler = { observed, change in
                if let observed = observed as? Self { changeHandler(observed, change) }
            }
        }
        // The overlay registers inside its key-path bridge: the class hooks
        // asked meanwhile for this very string reach
        // NSKeyValueObservingCustomization (the dependent keys while the
        // observance is made, and whether the key notifies automatically,
        // which KVO asks when it prepares the key's setter).
        let outer = process.bridgedKeyPaths[path]
        process.bridgedKeyPaths[path] = keyPath
        defer { process.bridgedKeyPaths[path] = outer }
        let token = NSKeyValueObservation(object: object, keyPath: path, callback: _KVODelivery.callback(handler))
        process.run {
            try process.kvo.addObserver(
                token._kvoObject, to: .object(object._kvoObject), keyPath: path,
                options: options._engineOptions, context: nil)
            if !path.contains(".") { _ = try object._kvoObject.cls.automaticallyNotifies(forKey: path) }
        }
        return token
    }

    public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        guard let object = self as? NSObject else { return }
        object.willChangeValue(forKey: _KVOProcess.shared.keyPathString(keyPath, root: Self.self))
    }

    public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        guard let object = self as? NSObject else { return }
        object.didChangeValue(forKey: _KVOProcess.shared.keyPathString(keyPath, root: Self.self))
    }

    public func willChange<Value>(
        _ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, Value>
    ) {
        guard let object = self as? NSObject else { return }
        object.willChange(
            changeKind, valuesAt: indexes, forKey: _KVOProcess.shared.keyPathString(keyPath, root: Self.self))
    }

    public func didChange<Value>(
        _ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, Value>
    ) {
        guard let object = self as? NSObject else { return }
        object.didChange(
            changeKind, valuesAt: indexes, forKey: _KVOProcess.shared.keyPathString(keyPath, root: Self.self))
    }
}

/// The Swift overlay's key-path spelling of the two class hooks. As on a
/// Mac, it answers only for the key path `observe(_:options:changeHandler:)`
/// is registering, while it registers (the overlay's key-path bridge):
/// other keys, and keys registered with `addObserver`, get NSObject's answers.
public protocol NSKeyValueObservingCustomization: NSObjectProtocol {
    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>
    static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool
}

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

/// The token `observe` returns; the observation lasts as long as it does.
public class NSKeyValueObservation: NSObject {
    /// The observed object's engine object, not the NSObject: a weak
    /// reference would give the observed object a side table for life (its
    /// every retain and release on the slow path, see `_Host`), and the
    /// engine object says, once the NSObject is gone, that it was released.
    var observed: KVOObject?
    let keyPath: String
    var callback: ((NSObject?, Change) -> Void)?

    init(object: NSObject, keyPath: String, callback: @escaping (NSObject?, Change) -> Void) {
        self.observed = object._kvoObject
        self.keyPath = keyPath
        self.callback = callback
        super.init()
    }

    func _deliver(object: NSObject?, change: Change) {
        callback?(object, change)
    }

    /// Ends the observation; harmless twice.
    public func invalidate() {
        end(released: false)
    }

    /// The observer goes away silently: `invalidate()`, or the token's
    /// release (`released`), which `--explain` tells apart.
    private func end(released: Bool) {
        guard callback != nil else { return }
        callback = nil
        guard let observed, !observed.isReleased, let token = _kvoObject else { return }
        let process = _KVOProcess.shared
        process.kvo.explainObservationEnded(observed, keyPath: keyPath, released: released)
        try? process.kvo.removeObserver(token, from: .object(observed), keyPath: keyPath, context: .exactly(nil))
        self.observed = nil
    }

    deinit { end(released: true) }
}
