import KVOCore

/// Apple's NSObject for a compiled Swift program on Linux: KVC and KVO as
/// Foundation has them on a Mac (SPEC §5–§7, §11), done by kvo-run's engine.
/// A program that imports this module sees this class, not
/// swift-corelibs-foundation's (which has neither KVC nor KVO).
///
/// Each object owns an engine object; its Swift class is declared to the
/// engine on first use from the table the rewriter writes into the class
/// (`_kvoDescribe`).
open class NSObject: NSObjectProtocol, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The engine's object for this one.
    public private(set) var _kvoObject: KVOObject!
    /// Set by `release(x)`: kvo-run's explicit deallocation.
    var _kvoReleased = false
    /// Set by a class that acts on its own notifications (`Operation` ends
    /// on its `isFinished`): its `_kvoDidChange` hears every change of its
    /// keys. A stored flag, so that other objects pay one load, not a call.
    var _kvoWatchesChanges = false

    /// A change of `key` was delivered (see `_kvoWatchesChanges`); under the runtime's lock.
    func _kvoDidChange(_ key: String) {}
    /// NSObject's `hash` is its address on a Mac; here the object's number
    /// in creation order, so that a program's output repeats (SPEC §3.1's
    /// names stand in for addresses the same way).
    let _kvoSerial: Int = {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.objectCount &+= 1
        return process.objectCount
    }()

    public init() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let object = process.kvo.makeObject(process.classInfo(for: type(of: self)), name: nil)
        _kvoObject = object
        process.hosts[ObjectIdentifier(object)] = _Host(object: self)
        if let name = process.pendingTokenName, self is NSKeyValueObservation {
            process.pendingTokenName = nil
            object.assignName(name)
        } else if !process.pendingObjectNames.isEmpty {
            // `Box<Int>` is called as `Box`.
            let className = _typeName(type(of: self), qualified: false).prefix { $0 != "<" }
            if let index = process.pendingObjectNames.firstIndex(where: { $0.className == className }) {
                object.assignName(process.pendingObjectNames.remove(at: index).name)
            }
        }
    }

    deinit {
        guard _kvoObject != nil else { return }
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        _kvoEnd(process)
        // Last, still under the lock: the engine object goes with this
        // reference, and its deinit edits its class's table of names.
        _kvoObject = nil
    }

    /// What `deinit` does under the runtime's lock, in a function of its own
    /// so that its references are gone when it returns.
    private func _kvoEnd(_ process: _KVOProcess) {
        guard let object = _kvoObject else { return }
        // First: the host table holds this object unretained (_Host).
        process.hosts[ObjectIdentifier(object)] = nil
        if !object.isReleased {
            // Observers are unregistered silently (macOS 10.13 and later).
            process.run { try process.kvo.release(object) }
        }
        // Associated objects go with their object (released once the table
        // is out of the dictionary: their own deinit may use it).
        let associations = process.associationTables.removeValue(forKey: ObjectIdentifier(self))
        withExtendedLifetime(associations) {}
    }

    // MARK: Identity and description

    open var description: String { _KVOProcess.shared.lock.held { _kvoObject.description } }
    open var debugDescription: String { description }
    open var className: String { _kvoObject.cls.runtimeName }
    open var hash: Int { _kvoSerial }
    open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSObject else { return false }
        return other === self
    }
    /// Swift's hashing of an NSObject is its `hash`, as on a Mac: a class
    /// that overrides `isEqual` and `hash` works as a dictionary key.
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs.isEqual(rhs) }
    /// NSObjectProtocol's: the receiver, and it is not a proxy.
    public func `self`() -> Self { self }
    open func isProxy() -> Bool { false }

    /// What `dump` and `Mirror(reflecting:)` show: the stored properties the
    /// program declared, class by class, over NSObject (which shows none, as
    /// Objective-C's has no Swift fields).
    open var customMirror: Mirror { _KVOClassTable.mirror(of: self, from: _kvoObject?.cls) }

    /// What the rewriter writes into each class: its properties and the
    /// methods KVC finds by name. NSObject itself declares none.
    open class func _kvoDescribe(_ table: _KVOClassTable) {}

    /// The Objective-C name of a Foundation property that Swift names
    /// otherwise (`isFinished` is `finished`, from `getter=isFinished`): what
    /// a Swift key path to it names on a Mac. Nil for every other.
    class func _kvoObjectiveCName(of property: String) -> String? { nil }

    /// Whether any key of an instance may be observed by key path, declared
    /// or not (`UserDefaults`: every default is a key).
    class var _kvoEveryKeyIsObservable: Bool { false }

    // MARK: Key-value coding

    open func value(forKey key: String) -> Any? {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        return process.keepingMark {
            _KVOBridge.swiftValue(process.run { try process.kvo.value(of: .object(_kvoObject), forKey: key) })
        }
    }

    open func value(forKeyPath keyPath: String) -> Any? {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let result = process.keepingMark {
            Result { try process.kvo.value(of: .object(_kvoObject), forKeyPath: keyPath) }
        }
        if case .failure(ScriptError.exception) = result, let value = _kvoValueThroughForeign(keyPath) {
            return value
        }
        return _KVOBridge.swiftValue(process.run { try result.get() })
    }

    /// A key path through a value the engine holds as its description (a
    /// Swift dictionary property: `bands.Beatles.members.lastName`, from
    /// Swift's own objc_keypath.swift test): the engine raised on that
    /// description; the rest of the path is read from the value itself, as
    /// KVC does on a Mac through the NSDictionary it bridges to. Nil (and the
    /// engine's exception stands) when the path does not go through one.
    private func _kvoValueThroughForeign(_ keyPath: String) -> Any?? {
        let process = _KVOProcess.shared
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current: NSObject = self
        for (index, key) in keys.enumerated() where index < keys.count - 1 {
            guard !key.hasPrefix("@"), let object = current._kvoObject,
                let value = try? process.kvo.value(of: .object(object), forKey: key)
            else { return nil }
            switch value {
            case .object(let next):
                guard let host = process.host(of: next) else { return nil }
                current = host
            case .string(let text):
                guard let original = _KVOBridge.foreignValue(text) else { return nil }
                let rest = keys[(index + 1)...].joined(separator: ".")
                return .some(_KVOCollections.value(of: original, forKeyPath: rest))
            default:
                return nil
            }
        }
        return nil
    }

    open func setValue(_ value: Any?, forKey key: String) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.keepingMark {
            process.run { try process.kvo.setValue(_KVOBridge.value(value), of: .object(_kvoObject), forKey: key) }
        }
    }

    open func setValue(_ value: Any?, forKeyPath keyPath: String) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.keepingMark {
            process.run {
                try process.kvo.setValue(_KVOBridge.value(value), of: .object(_kvoObject), forKeyPath: keyPath)
            }
        }
    }

    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for key in keyedValues.keys.sorted() { setValue(keyedValues[key], forKey: key) }
    }

    open func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    open func value(forUndefinedKey key: String) -> Any? {
        _KVOProcess.entered().raise(Exceptions.undefinedKeyGet(_kvoObject.pointerDescription, key: key))
    }

    open func setValue(_ value: Any?, forUndefinedKey key: String) {
        _KVOProcess.entered().raise(Exceptions.undefinedKeySet(_kvoObject.pointerDescription, key: key))
    }

    open func setNilValueForKey(_ key: String) {
        _KVOProcess.entered().raise(Exceptions.setNil(_kvoObject, key: key))
    }

    // MARK: Key-value coding of the class object

    /// A class is an object in Objective-C, and NSObject's class side answers
    /// KVC as an instance does (libraries override
    /// `class func setValue(_:forUndefinedKey:)` to ignore unknown keys). A
    /// class object has no properties here: every key is undefined.
    open class func value(forKey key: String) -> Any? { value(forUndefinedKey: key) }

    open class func setValue(_ value: Any?, forKey key: String) {
        if value == nil || value is NSNull {
            setNilValueForKey(key)
        } else {
            setValue(value, forUndefinedKey: key)
        }
    }

    open class func value(forUndefinedKey key: String) -> Any? {
        _KVOProcess.entered().raise(Exceptions.undefinedKeyGet(_kvoClassReceiver, key: key))
    }

    open class func setValue(_ value: Any?, forUndefinedKey key: String) {
        _KVOProcess.entered().raise(Exceptions.undefinedKeySet(_kvoClassReceiver, key: key))
    }

    open class func setNilValueForKey(_ key: String) {
        setValue(nil, forUndefinedKey: key)
    }

    /// `<Account (class)>`: the class where a Mac prints its address (SPEC §3.1).
    private static var _kvoClassReceiver: String {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        return "<\(process.classInfo(for: self).runtimeName) (class)>"
    }

    /// Key-value validation (SPEC §11.5): `validate<Key>` when the class has
    /// one (its `@objc func validateName(_ ioValue: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws`).
    open func validateValue(_ ioValue: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        guard let validator = _KVOClassTable.validator(for: _kvoObject.cls, key: key) else { return }
        try validator(self, ioValue)
    }

    open func validateValue(
        _ ioValue: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKeyPath keyPath: String
    )
        throws
    {
        var components = keyPath.split(separator: ".").map(String.init)
        let last = components.popLast() ?? keyPath
        var target: NSObject = self
        for key in components {
            guard let next = target.value(forKey: key) as? NSObject else { return }
            target = next
        }
        try target.validateValue(ioValue, forKey: last)
    }

    // MARK: Key-value observing

    open func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.checkModelled(keyPath, from: self)
        process.run {
            try process.kvo.addObserver(
                observer._kvoObject, to: .object(_kvoObject), keyPath: keyPath,
                options: options._engineOptions, context: process.context(context))
        }
    }

    open func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.run {
            try process.kvo.removeObserver(
                observer._kvoObject, from: .object(_kvoObject), keyPath: keyPath,
                context: .exactly(process.context(context)))
        }
    }

    open func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.run {
            try process.kvo.removeObserver(
                observer._kvoObject, from: .object(_kvoObject), keyPath: keyPath, context: .any)
        }
    }

    /// NSObject's own: a subclass that registered an observer and did not
    /// consume its notification (SPEC §6.8).
    open func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let observed = (object as? NSObject)?._kvoObject ?? _kvoObject!
        let change = _KVOBridge.change(change)
        let exception = Exceptions.unhandled(
            observer: _kvoObject, keyPath: keyPath ?? "", object: observed, change: change,
            context: process.context(context))
        process.raise(exception)
    }

    /// The runtime's lock is held from here to `didChangeValue` (`_KVOLock`).
    open func willChangeValue(forKey key: String) {
        let process = _KVOProcess.enteredForChange()
        process.run { try process.kvo.willChange(_kvoObject, key: key) }
    }

    open func didChangeValue(forKey key: String) {
        _kvoEndChange(key)
    }

    open func willChange(_ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, forKey key: String) {
        let process = _KVOProcess.enteredForChange()
        let kind = Change.Kind(rawValue: Int(changeKind.rawValue)) ?? .setting
        process.run { try process.kvo.willChange(_kvoObject, key: key, .ordered(kind, Array(indexes))) }
    }

    open func didChange(_ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, forKey key: String) {
        _kvoEndChange(key)
    }

    open func willChangeValue(
        forKey key: String, withSetMutation mutationKind: NSKeyValueSetMutationKind, using objects: Set<AnyHashable>
    ) {
        let process = _KVOProcess.enteredForChange()
        let values = ValueSet(objects.map { _KVOBridge.value($0.base) })
        process.run { try process.kvo.willChangeSet(_kvoObject, key: key, mutationKind._engine, values) }
    }

    open func didChangeValue(
        forKey key: String, withSetMutation mutationKind: NSKeyValueSetMutationKind, using objects: Set<AnyHashable>
    ) {
        _kvoEndChange(key)
    }

    /// Every `didChange…`: the change's notifications, then the runtime's
    /// level its `willChange…` kept, if it had one (a `didChange` without
    /// one gives back only its own).
    private func _kvoEndChange(_ key: String) {
        let process = _KVOProcess.entered()
        let paired = process.manualChangesOpen > 0
        if paired { process.manualChangesOpen -= 1 }
        defer {
            process.lock.leave()
            if paired { process.lock.leave() }
        }
        process.run { try process.kvo.didChange(_kvoObject, key: key) }
        if _kvoWatchesChanges { _kvoDidChange(key) }
    }

    open class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        // The overlay's swizzled NSObject method: the key-path spelling answers
        // for the key `observe` is registering, and only then.
        // The key path first: the conformance check of a class that does not
        // conform scans every conformance record of the process.
        if let keyPath = process.bridgedKeyPaths[key],
            let customizing = self as? NSKeyValueObservingCustomization.Type
        {
            return customizing.automaticallyNotifiesObservers(for: keyPath)
        }
        let info = process.classInfo(for: self)
        if let custom = _KVOClassTable.automatic(for: info, key: key) { return custom() }
        return info.defaultAutomaticallyNotifies(forKey: key)
    }

    open class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        // The key path first: the conformance check of a class that does not
        // conform scans every conformance record of the process.
        if let keyPath = process.bridgedKeyPaths[key],
            let customizing = self as? NSKeyValueObservingCustomization.Type
        {
            return Set(
                customizing.keyPathsAffectingValue(for: keyPath).map { process.keyPathString($0, root: self) })
        }
        let info = process.classInfo(for: self)
        if let custom = _KVOClassTable.affecting(for: info, key: key) { return custom() }
        return Set(info.defaultKeyPathsAffecting(key))
    }

    /// Apple's `observationInfo`: printing it dumps the observances (SPEC §8.3).
    open var observationInfo: _KVOObservationInfo? {
        let observed = _KVOProcess.shared.lock.held { _kvoObject.observationInfo != nil }
        return observed ? _KVOObservationInfo(object: _kvoObject) : nil
    }

    // MARK: Collection proxies

    open func mutableArrayValue(forKey key: String) -> NSMutableArray {
        NSMutableArrayProxy(owner: self, keyPath: key)
    }

    open func mutableArrayValue(forKeyPath keyPath: String) -> NSMutableArray {
        NSMutableArrayProxy(owner: self, keyPath: keyPath)
    }

    open func mutableSetValue(forKey key: String) -> NSMutableSetProxy {
        NSMutableSetProxy(owner: self, keyPath: key)
    }

    open func mutableSetValue(forKeyPath keyPath: String) -> NSMutableSetProxy {
        NSMutableSetProxy(owner: self, keyPath: keyPath)
    }
}

/// What `o.observationInfo` gives: printed, the dump of SPEC §8.3.
public struct _KVOObservationInfo: CustomStringConvertible {
    let object: KVOObject
    public var description: String { _KVOProcess.shared.lock.held { object.observationInfoDescription ?? "nil" } }
}

/// `NSKeyValueSetMutationKind`.
public enum NSKeyValueSetMutationKind: UInt {
    case union = 1, minus = 2, intersect = 3, set = 4

    var _engine: SetMutation {
        switch self {
        case .union: return .union
        case .minus: return .minus
        case .intersect: return .intersect
        case .set: return .set
        }
    }
}

/// `object_getClass(o)`: KVO's generated subclass while observed (SPEC §11.4).
/// On Linux there is no Objective-C class to return: the result carries the
/// class's runtime name, for `NSStringFromClass`, and prints as Swift prints
/// the original class (its runtime peeks through KVO's subclass).
public func object_getClass(_ object: Any?) -> _KVORuntimeClass? {
    guard let object = object as? NSObject else { return nil }
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    return _KVORuntimeClass(
        name: _KVOProcess.shared.runtimeClassName(object._kvoObject), swiftName: object._kvoObject.cls.name)
}

/// The class `object_getClass` returns.
public final class _KVORuntimeClass: CustomStringConvertible {
    public let name: String
    let swiftName: String
    init(name: String, swiftName: String) {
        self.name = name
        self.swiftName = swiftName
    }
    public var description: String { swiftName }
}

public func NSStringFromClass(_ cls: _KVORuntimeClass) -> String { cls.name }
public func NSStringFromClass(_ cls: _KVORuntimeClass?) -> String { cls?.name ?? "nil" }
public func NSStringFromClass(_ cls: AnyClass) -> String {
    if let type = cls as? NSObject.Type {
        return _KVOProcess.shared.lock.held { _KVOProcess.shared.classInfo(for: type).runtimeName }
    }
    return String(reflecting: cls)
}

/// kvo-run's explicit deallocation (SPEC §6.9): the object becomes a zombie,
/// its observers are unregistered silently and the tokens held in its
/// properties end.
public func release(_ object: NSObject) {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    guard let engineObject = object._kvoObject else { return }
    // A token's release ends its observation first, silently.
    if let token = object as? NSKeyValueObservation { token.invalidate() }
    process.run { try process.kvo.release(engineObject) }
    object._kvoReleased = true
    // Its deinit would release them, and each token's deinit invalidates
    // it: held directly, or in an array or a set held there.
    for child in Mirror(reflecting: object).children {
        if let token = child.value as? NSKeyValueObservation { token.invalidate() }
        if let token = child.value as? NSKeyValueObservation? { token?.invalidate() }
        if let tokens = child.value as? [NSKeyValueObservation] { tokens.forEach { $0.invalidate() } }
        if let tokens = child.value as? Set<NSKeyValueObservation> { tokens.forEach { $0.invalidate() } }
    }
}
