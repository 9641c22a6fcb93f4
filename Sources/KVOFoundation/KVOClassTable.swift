import KVOCore

/// What the rewriter tells the engine about one Swift class, in the
/// `_kvoDescribe` it writes into the class: the properties Objective-C would
/// see (with getters and raw setters: the setter stores and runs
/// `willSet`/`didSet`, and the engine wraps it in the change), and the
/// methods KVC finds by name (SPEC §5): zero-argument getters,
/// `validate<Key>`, `keyPathsForValuesAffecting<Key>`,
/// `automaticallyNotifiesObserversOf<Key>`.
public final class _KVOClassTable {
    let info: ClassInfo
    let type: NSObject.Type

    init(info: ClassInfo, type: NSObject.Type) {
        self.info = info
        self.type = type
    }

    /// A property. `objc`: KVC can see it; `dynamic`: a Swift assignment
    /// goes through KVO (the rewriter makes that assignment notify).
    /// `stored`: a stored property of this class, neither computed nor an
    /// override, whose getter reads what its setter stored and whose setter
    /// runs no code of the program's between its `_kvoWill` and `_kvoDid`,
    /// which hand over the values (`_kvoWill(_:_:_:)`).
    public func property<C: NSObject, V>(
        _ name: String, objc: Bool, dynamic: Bool, get: @escaping (C) -> V, set: ((C, V) -> Void)?,
        keyPath: KeyPath<C, V>? = nil, stored: Bool = false
    ) {
        // The key path's name, for `observe` given a key path that is not a
        // literal (a generic helper's parameter): Linux cannot read it.
        if let keyPath { _KVOProcess.shared.keyPathNames[keyPath] = name }
        let property = PropertyInfo(name: name, type: _KVOBridge.valueType(V.self), storage: .computed)
        let convert = _KVOBridge.converter(V.self)
        property.getter = { object in
            guard let host = _KVOProcess.shared.host(of: object) as? C else { return .null }
            return convert(get(host))
        }
        property.readsOwnStorage = stored
        if let set {
            property.hasSetter = true
            property.setter = { object, value in
                guard let host = _KVOProcess.shared.host(of: object) as? C else { return }
                guard let converted: V = _KVOBridge.cast(value, to: V.self) else {
                    throw ScriptError.runtime(
                        "Could not cast value of type '\(_KVOBridge.swiftTypeName(value))' to '\(V.self)' for the key \(name) of \(object.cls.runtimeName)"
                    )
                }
                _KVOProcess.shared.storingForKVC(object, name) { set(host, converted) }
            }
        }
        property.kvcHidden = !objc
        info.addProperty(property)
        _KVOProcess.shared.replState?.record(info, name, type: V.self, objc: objc, dynamic: dynamic)
    }

    /// A method of no arguments KVC finds as a getter (`-key`, `-getKey`, `-isKey`).
    public func getter<C: NSObject, V>(_ key: String, _ body: @escaping (C) -> V) {
        info.ownHooks.getterMethods[key] = { object in
            guard let host = _KVOProcess.shared.host(of: object) as? C else { return .null }
            return _KVOBridge.value(body(host))
        }
    }

    /// A method of one argument KVC finds by name: `objectIn<Key>AtIndex(_:)`
    /// (with `countOf<Key>()`, an indexed getter) and `set<Key>(_:)`.
    public func oneArgument<C: NSObject, A, R>(_ name: String, _ body: @escaping (C, A) -> R) {
        info.ownHooks.oneArgumentMethods[name] = { object, value in
            guard let host = _KVOProcess.shared.host(of: object) as? C else { return .null }
            guard let argument: A = _KVOBridge.cast(value, to: A.self) else {
                throw ScriptError.runtime(
                    "Could not cast value of type '\(_KVOBridge.swiftTypeName(value))' to '\(A.self)' for \(name) of \(object.cls.runtimeName)"
                )
            }
            let result = body(host, argument)
            return R.self == Void.self ? .null : _KVOBridge.value(result)
        }
    }

    /// `validate<Key>(_:)`, as Apple documents it for Swift.
    public func validator<C: NSObject>(
        _ key: String, _ body: @escaping (C, AutoreleasingUnsafeMutablePointer<AnyObject?>) throws -> Void
    ) {
        _KVOProcess.shared.swiftMethods.validators[ObjectIdentifier(info), default: [:]][key] = { object, pointer in
            guard let host = object as? C else { return }
            do {
                try body(host, pointer)
            } catch {
                _KVOErrors.reportThrown(error)
                throw error
            }
        }
    }

    /// The class's own stored properties, in order, for `dump` and `Mirror`
    /// (Swift's reflection would show kvo-run's NSObject's internals).
    public func storedProperties<C: NSObject>(_ children: @escaping (C) -> [(String, Any)]) {
        _KVOProcess.shared.swiftMethods.mirrors[ObjectIdentifier(info)] = { object, ancestor in
            guard let host = object as? C else { return ancestor() }
            return Mirror(
                host, children: children(host).map { (label: Optional($0.0), value: $0.1) }, displayStyle: .class,
                ancestorRepresentation: .customized(ancestor))
        }
    }

    /// The mirror of `object` from its class `cls` up: each described class
    /// is a level; kvo-run's NSObject is the top, with no children.
    static func mirror(of object: NSObject, from cls: ClassInfo?) -> Mirror {
        let mirrors = _KVOProcess.shared.swiftMethods.mirrors
        if let cls {
            for level in cls.lineage {
                if let make = mirrors[ObjectIdentifier(level)] {
                    let superclass = level.superclass
                    return make(object) { mirror(of: object, from: superclass) }
                }
            }
        }
        return Mirror(object, children: [Mirror.Child](), displayStyle: .class)
    }

    /// `class func keyPathsForValuesAffecting<Key>() -> Set<String>` (or a class var).
    public func affecting(_ key: String, _ body: @escaping () -> Set<String>) {
        _KVOProcess.shared.swiftMethods.affectingMethods[ObjectIdentifier(info), default: [:]][key] = body
    }

    /// `class func automaticallyNotifiesObserversOf<Key>() -> Bool` (or a class var).
    public func automatic(_ key: String, _ body: @escaping () -> Bool) {
        _KVOProcess.shared.swiftMethods.automaticMethods[ObjectIdentifier(info), default: [:]][key] = body
    }

    static func validator(for info: ClassInfo, key: String) -> _KVOSwiftMethods.Validator? {
        _KVOSwiftMethods.nearest(_KVOProcess.shared.swiftMethods.validators, from: info, key: key)
    }

    static func affecting(for info: ClassInfo, key: String) -> (() -> Set<String>)? {
        _KVOSwiftMethods.nearest(_KVOProcess.shared.swiftMethods.affectingMethods, from: info, key: key)
    }

    static func automatic(for info: ClassInfo, key: String) -> (() -> Bool)? {
        _KVOSwiftMethods.nearest(_KVOProcess.shared.swiftMethods.automaticMethods, from: info, key: key)
    }
}

/// Per engine class (by identity: every class lives as long as the
/// program), the methods a Swift class declares that Objective-C's runtime
/// would find by name and the engine's hooks do not hold: validation, the
/// two class hooks of dependent and manual keys, its level of a mirror.
struct _KVOSwiftMethods {
    typealias Validator = (NSObject, AutoreleasingUnsafeMutablePointer<AnyObject?>) throws -> Void
    var validators: [ObjectIdentifier: [String: Validator]] = [:]
    var valueValidators: [ObjectIdentifier: [String: (NSObject, Any?) throws -> Any?]] = [:]
    var affectingMethods: [ObjectIdentifier: [String: () -> Set<String>]] = [:]
    var automaticMethods: [ObjectIdentifier: [String: () -> Bool]] = [:]
    /// Per class, its level of an instance's mirror: the class's own stored
    /// properties, over its superclass's level.
    var mirrors: [ObjectIdentifier: (NSObject, @escaping () -> Mirror) -> Mirror] = [:]

    /// The entry for `key` of the nearest class, from `info` up its
    /// superclasses, as Objective-C's method lookup finds an inherited method.
    static func nearest<Entry>(
        _ table: [ObjectIdentifier: [String: Entry]], from info: ClassInfo, key: String
    ) -> Entry? {
        for cls in info.lineage {
            if let found = table[ObjectIdentifier(cls)]?[key] { return found }
        }
        return nil
    }
}

// MARK: What rewritten programs call

/// Starts the runtime before the program's first statement.
public func _kvoStart() {
    _ = _KVOProcess.shared
}

/// Where the program is: the rewriter marks each statement (line, its
/// column, and the column of its first KVO call) so that an exception or a
/// runtime error can name it.
@inline(__always)
public func _kvoAt(_ line: Int, _ column: Int, _ callColumn: Int) {
    let mark = _KVOProcess.shared.mark
    mark.pointee.line = line
    mark.pointee.statementColumn = column
    mark.pointee.callColumn = callColumn
    mark.pointee.statements &+= 1
}

/// `let acct = Account()` at top level: the object is named `acct` (SPEC §3.1).
public func _kvoNamed<T>(_ value: T, _ name: String) -> T {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    process.pendingObjectNames.removeAll { $0.name == name }
    if let object = value as? NSObject, let engineObject = object._kvoObject { engineObject.assignName(name) }
    return value
}

/// `let token = o.observe(…)` at top level: the token is named before its
/// `.initial` notification is delivered.
public func _kvoNamedToken<T>(_ name: String, _ body: () -> T) -> T {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    process.pendingTokenName = name
    defer { process.pendingTokenName = nil }
    return body()
}

/// `&myContext`: a pointer named after the variable.
public func _kvoContext(_ name: String) -> UnsafeMutableRawPointer {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    return process.context(named: name)
}

/// A key-path literal given to `observe`, with the name Linux cannot read from it.
public func _kvoKeyPath<Root, Value>(
    _ keyPath: KeyPath<Root, Value>, _ name: String, handlerAt: (line: Int, column: Int)? = nil
) -> KeyPath<Root, Value> {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    // The `observe` this key path is given to takes it (its argument is
    // evaluated just before the call): a trap in the handler is reported
    // at the handler's line, not at the statement that made the change.
    process.pendingHandlerMark = handlerAt
    // A property of the program's that Objective-C names otherwise
    // (`@objc(displayName) var name`): its class table named the key path
    // already, with the key KVO knows it by.
    if !name.contains("."), let type = Root.self as? NSObject.Type,
        !_typeName(type, qualified: true).hasPrefix("KVOFoundation.")
    {
        _ = process.classInfo(for: type)
        if let declared = process.keyPathNames[keyPath], declared != name { return keyPath }
    }
    // `\.isFinished` of an Operation is `finished`, its Objective-C name, as on a Mac.
    let objectiveCName = (Root.self as? NSObject.Type).flatMap { $0._kvoObjectiveCName(of: name) }
    process.keyPathNames[keyPath] = objectiveCName ?? name
    return keyPath
}

/// The start of an `@objc dynamic` property's setter (the rewriter puts it
/// first in its `willSet`, or a custom setter): KVO's generated subclass
/// announces the change before the Swift setter runs `willSet`, stores and
/// runs `didSet`, and `_kvoDid` (last in `didSet`) finishes it. Not when KVC's
/// `setValue` is storing through the setter: the engine wraps that one itself.
/// The runtime's lock is held from one to the other (`_KVOLock`).
public func _kvoWill(_ object: NSObject, _ staticKey: StaticString) {
    _kvoWillChange(object, staticKey, typed: false) {
        .null
    } new: {
        .null
    }
}

/// The start of the setter of a stored `@objc dynamic` property that has
/// no `willSet` or `didSet` of the program's, with the value it holds
/// (`willSet { _kvoWill(self, "key", self.key, newValue) }`: its storage)
/// and the value it is about to store. Between it and `_kvoDid(_:_:_:)`
/// only that store runs, so when every observance the change triggers
/// observes this property of this object directly (the engine's direct
/// set) the change needs no pending record: `_kvoDid` delivers it
/// (`KVORuntime.deliverStoredSet`) with these values, which are what the
/// property's getter would read then, instead of calling the getter through
/// its closures. Otherwise, and for types whose engine value the type does
/// not say (the generic form), it is `_kvoWill(_:_:)`.
public func _kvoWill(
    _ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Int, _ newValue: Int
) {
    _kvoWillChange(object, staticKey, typed: true) {
        .int(value())
    } new: {
        .int(newValue)
    }
}

public func _kvoWill(
    _ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Double, _ newValue: Double
) {
    _kvoWillChange(object, staticKey, typed: true) {
        .double(value())
    } new: {
        .double(newValue)
    }
}

public func _kvoWill(
    _ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Bool, _ newValue: Bool
) {
    _kvoWillChange(object, staticKey, typed: true) {
        .bool(value())
    } new: {
        .bool(newValue)
    }
}

public func _kvoWill(
    _ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> String, _ newValue: String
) {
    _kvoWillChange(object, staticKey, typed: true) {
        .string(value())
    } new: {
        .string(newValue)
    }
}

public func _kvoWill<V>(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> V, _ newValue: V) {
    _kvoWillChange(object, staticKey, typed: false) {
        .null
    } new: {
        .null
    }
}

/// How a running setter announced its change (`_KVOProcess.openChanges`).
enum OpenChange {
    /// Nobody is told (unobserved, or a manual key).
    case silent
    /// `willChangeAutomatically`: the engine's pending change.
    case pending
    /// A stored set `_kvoDid` delivers (`_kvoWill(_:_:_:_:)`), its old
    /// and new values kept in `_KVOProcess.storedSetOld` and `storedSetNew`.
    case stored
}

@inline(__always)
private func _kvoWillChange(
    _ object: NSObject, _ staticKey: StaticString, typed: Bool, _ value: () -> Value, new: () -> Value
) {
    let process = _KVOProcess.entered()
    // First: any store may change what a stored set's observers read next.
    process.kvo.settersStarted &+= 1
    let key = process.key(staticKey)
    guard let engineObject = object._kvoObject else { return }
    if engineObject.isReleased {
        process.fail(engineObject.usedAfterRelease, column: process.statementColumn)
    }
    if process.isStoringForKVC(engineObject, key) { return }
    let notifies: Bool
    var property: PropertyInfo?
    if engineObject.observationInfo == nil {
        notifies = false
    } else {
        // By the property when there is one: its answer is cached on it, and
        // `property(named:)` compares the last key asked for before hashing.
        let cls = engineObject.cls
        property = cls.property(named: key)
        if let property {
            notifies = process.run { try cls.automaticallyNotifies(property) }
        } else {
            notifies = process.run { try cls.automaticallyNotifies(forKey: key) }
        }
    }
    guard notifies else {
        process.openChanges.append(.silent)
        if process.kvo.explains { process.kvo.explainSilentSet(engineObject, key: key) }
        return
    }
    // The property found is this class's own stored one (a subclass's
    // override is another property, not stored), so its getter would read
    // the storage the setter hands over.
    if typed, let property, property.readsOwnStorage,
        let readsOld = process.kvo.storedSetReadsOld(engineObject, key: key, property: property)
    {
        process.storedSetOld = readsOld ? value() : .null
        process.storedSetNew = new()
        process.openChanges.append(.stored)
        return
    }
    process.openChanges.append(.pending)
    process.run { try process.kvo.willChangeAutomatically(engineObject, key: key) }
}

public func _kvoDid(_ object: NSObject, _ staticKey: StaticString) {
    _kvoDidChange(object, staticKey) { .null }
}

/// The end of a stored property's setter with its storage, read again
/// when an observer wants the new value after a handler ran (see
/// `_kvoWill(_:_:_:_:)`).
public func _kvoDid(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Int) {
    _kvoDidChange(object, staticKey) { .int(value()) }
}

public func _kvoDid(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Double) {
    _kvoDidChange(object, staticKey) { .double(value()) }
}

public func _kvoDid(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> Bool) {
    _kvoDidChange(object, staticKey) { .bool(value()) }
}

public func _kvoDid(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> String) {
    _kvoDidChange(object, staticKey) { .string(value()) }
}

public func _kvoDid<V>(_ object: NSObject, _ staticKey: StaticString, _ value: @autoclosure () -> V) {
    _kvoDidChange(object, staticKey) { .null }
}

@inline(__always)
private func _kvoDidChange(_ object: NSObject, _ staticKey: StaticString, _ value: () -> Value) {
    let process = _KVOProcess.shared
    defer { process.lock.leave() }
    let key = process.key(staticKey)
    guard let engineObject = object._kvoObject else { return }
    if process.isStoringForKVC(engineObject, key) { return }
    switch process.openChanges.popLast() ?? .silent {
    case .silent:
        break
    case .pending:
        process.run { try process.kvo.didChange(engineObject, key: key) }
    case .stored:
        var old = Value.null
        var new = Value.null
        swap(&old, &process.storedSetOld)
        swap(&new, &process.storedSetNew)
        process.run {
            try process.kvo.deliverStoredSet(engineObject, key: key, old: old, new: new, reading: value)
        }
    }
    if object._kvoWatchesChanges { object._kvoDidChange(key) }
}

extension _KVOProcess {
    /// The key a setter's `_kvoWill`/`_kvoDid` names, as a String: the last
    /// one made is kept by the literal's address (a property's will and did
    /// name the same literal), where making a String of a literal at each
    /// call cost a compiled B1 set about 150 instructions (`-Onone`).
    @inline(__always)
    func key(_ literal: StaticString) -> String {
        // A one-scalar literal may be held as its scalar, with no address.
        guard literal.hasPointerRepresentation else { return literal.description }
        let address = UnsafeRawPointer(literal.utf8Start)
        if address == lastKeyLiteral { return lastKey }
        let made = literal.description
        lastKeyLiteral = address
        lastKey = made
        return made
    }
}

/// The start of the setter of a property that is not `@objc dynamic`: Swift
/// calls it directly, past KVO. Said once per class and key while the key is
/// observed. Only when no other thread holds the runtime: it is advice, and
/// a plain store is no KVO call, so it must never wait (a setter that stores
/// on a queue another thread waits for, inside its will/did, would deadlock).
public func _kvoPlainWill(_ object: NSObject, _ key: String, missing: String = "dynamic") {
    let process = _KVOProcess.shared
    guard process.lock.tryEnter() else { return }
    defer { process.lock.leave() }
    guard let engineObject = object._kvoObject, !process.isStoringForKVC(engineObject, key) else { return }
    process.kvo.explainNotDynamic(engineObject, key: key)
    // Asked at every assignment: found among the observances of `key`, not
    // by listing all of the object's (one observed for 25,000 keys made
    // each store of a dictionary property copy them).
    if engineObject.observationInfo?.hasObservance(ofKeyPath: key) == true,
        process.warnedAssignments.insert(engineObject.cls.name + "." + key).inserted
    {
        // `missing`: "@objc" for a `dynamic var` without it (Swift's own
        // dynamic, not Objective-C's).
        process.warn(
            "'\(key)' is not \(missing): this assignment bypasses KVO; declare it '@objc dynamic var \(key)'")
    }
}

/// `let token = o.observe(…)` at top level: the token about to be made is
/// named after the binding, before its `.initial` notification.
public func _kvoPendingToken(_ name: String) {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    process.pendingTokenName = name
}

/// `let a = A(), b = B()` at top level, before it runs: the names its
/// objects take when they are created (`name, className, name, className…`),
/// so that an object has its binding's name from its own `init` on (SPEC
/// §3.1). `_kvoNamed` after the statement drops a name nothing took.
public func _kvoPendingNames(_ pairs: String...) {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    process.pendingObjectNames = stride(from: 0, to: pairs.count - 1, by: 2).map { (pairs[$0], pairs[$0 + 1]) }
}

extension _KVOClassTable {
    /// `validate<Key>(_ value: Any?) throws -> Any?`: kvo-run's scenario
    /// spelling of validation (SPEC §11.5), returning the value to use.
    public func valueValidator<C: NSObject>(_ key: String, _ body: @escaping (C, Any?) throws -> Any?) {
        _KVOProcess.shared.swiftMethods.valueValidators[ObjectIdentifier(info), default: [:]][key] = { object, value in
            guard let host = object as? C else { return value }
            do {
                return try body(host, value)
            } catch {
                _KVOErrors.reportThrown(error)
                throw error
            }
        }
    }
}

extension NSObject {
    /// Validation in the scenario spelling: the validated value, or the error thrown.
    public func validateValue(_ value: Any?, forKey key: String) throws -> Any? {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let validators = process.swiftMethods.valueValidators
        guard let validator = _KVOSwiftMethods.nearest(validators, from: _kvoObject.cls, key: key) else {
            return value
        }
        return try validator(self, value)
    }
}
