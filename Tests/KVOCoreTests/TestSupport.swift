import Testing
@testable import KVOCore

/// A failure of the test fixture itself (a property that does not exist…).
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One runtime with a collecting sink, plus shorthands to declare classes, make
/// objects, mutate them and read back what was delivered as compact lines:
/// `acct.balance → alice {kind = 1; new = 200; old = 100} context: Ctx`,
/// indented two spaces per handler depth (as the text format of docs/language.md#text-format).
final class World {
    let sink = CollectingSink()
    let rt: KVORuntime
    private var taken = 0

    init() {
        rt = KVORuntime(sink: sink)
    }

    // MARK: Classes and objects

    func makeClass(_ name: String, superclass: ClassInfo? = nil, _ properties: [PropertyInfo] = []) -> ClassInfo {
        let cls = ClassInfo(name: name, superclass: superclass)
        for property in properties { cls.addProperty(property) }
        return cls
    }

    /// A stored property (its slot is assigned by `addProperty`).
    func stored(
        _ name: String, _ type: ValueType, _ defaultValue: Value? = nil,
        manual: Bool = false, affectedBy: [String] = []
    ) -> PropertyInfo {
        PropertyInfo(
            name: name, type: type, storage: .stored(slot: 0), isManual: manual,
            affectedBy: affectedBy, defaultValue: defaultValue)
    }

    /// A computed, read-only property.
    func computed(
        _ name: String, _ type: ValueType, affectedBy: [String] = [],
        _ getter: @escaping (KVOObject) throws -> Value
    ) -> PropertyInfo {
        let property = PropertyInfo(name: name, type: type, storage: .computed, affectedBy: affectedBy)
        property.getter = getter
        return property
    }

    /// Creates an object and sets its properties without notifications, as
    /// `Class(prop: value, …)` does.
    func object(_ cls: ClassInfo, _ name: String? = nil, _ values: [(String, Value)] = []) throws -> KVOObject {
        let object = rt.makeObject(cls, name: name)
        for (key, value) in values { try rt.setIvar(object, try property(object, key), value) }
        return object
    }

    func property(_ object: KVOObject, _ key: String) throws -> PropertyInfo {
        guard let property = object.cls.property(named: key) else {
            throw FixtureError("no property '\(key)' in \(object.cls.name)")
        }
        return property
    }

    /// Reads a stored property's slot directly (for computed getters in fixtures).
    static func ivar(_ object: KVOObject, _ key: String) -> Value {
        guard let slot = object.cls.property(named: key)?.slot else { return .null }
        return object.slots[slot]
    }

    // MARK: KVC / KVO shorthands

    func get(_ object: KVOObject, _ key: String) throws -> Value {
        try rt.get(object, try property(object, key))
    }

    /// `o.key = value`: the setter (automatic notification).
    func set(_ object: KVOObject, _ key: String, _ value: Value) throws {
        try rt.set(object, try property(object, key), value)
    }

    /// `o._key = value`: never notifies.
    func setIvar(_ object: KVOObject, _ key: String, _ value: Value) throws {
        try rt.setIvar(object, try property(object, key), value)
    }

    func setValue(_ value: Value, _ object: KVOObject, forKey key: String) throws {
        try rt.setValue(value, of: .object(object), forKey: key)
    }

    func setValue(_ value: Value, _ object: KVOObject, forKeyPath keyPath: String) throws {
        try rt.setValue(value, of: .object(object), forKeyPath: keyPath)
    }

    func value(_ object: KVOObject, forKey key: String) throws -> Value {
        try rt.value(of: .object(object), forKey: key)
    }

    func value(_ object: KVOObject, forKeyPath keyPath: String) throws -> Value {
        try rt.value(of: .object(object), forKeyPath: keyPath)
    }

    func observe(
        _ object: KVOObject, _ observer: KVOObject, _ keyPath: String,
        _ options: ObservingOptions = [], context: Context? = nil
    ) throws {
        try rt.addObserver(observer, to: .object(object), keyPath: keyPath, options: options, context: context)
    }

    /// `removeObserver(_:forKeyPath:)` (any context).
    func unobserve(_ object: KVOObject, _ observer: KVOObject, _ keyPath: String) throws {
        try rt.removeObserver(observer, from: .object(object), keyPath: keyPath, context: .any)
    }

    /// `removeObserver(_:forKeyPath:context:)`.
    func unobserve(_ object: KVOObject, _ observer: KVOObject, _ keyPath: String, context: Context?) throws {
        try rt.removeObserver(observer, from: .object(object), keyPath: keyPath, context: .exactly(context))
    }

    func will(_ object: KVOObject, _ key: String) throws { try rt.willChange(object, key: key) }
    func did(_ object: KVOObject, _ key: String) throws { try rt.didChange(object, key: key) }

    /// Reports a `print` from inside a handler, at the current depth.
    func print(_ text: String) {
        sink.emit(.print(text: text, depth: rt.depth))
    }

    // MARK: Events

    /// Every event so far, rendered.
    var lines: [String] { sink.events.map(render) }

    /// The events since the last `take()`, rendered.
    func take() -> [String] {
        let all = sink.events
        let fresh = all[taken...].map(render)
        taken = all.count
        return Array(fresh)
    }

    /// The depth of every notify event so far, in order.
    var notifyDepths: [Int] {
        sink.events.compactMap { event in
            if case .notify(_, _, _, _, _, let depth) = event { return depth }
            return nil
        }
    }

    /// The change dictionaries delivered, in order.
    var changes: [Change] {
        sink.events.compactMap { event in
            if case .notify(_, _, _, let change, _, _) = event { return change }
            return nil
        }
    }
}

/// `acct.balance → alice {kind = 1; new = 200; old = 100} context: Ctx`, indented
/// two spaces per depth; prints as `print: text`.
func render(_ event: Event) -> String {
    switch event {
    case .notify(let object, let keyPath, let observer, let change, let context, let depth):
        var line =
            String(repeating: "  ", count: depth)
            + "\(object.name).\(keyPath) → \(observer.name) \(change.description)"
        if let context { line += " context: \(context.name)" }
        return line
    case .print(let text, let depth):
        return String(repeating: "  ", count: depth) + "print: " + text
    case .exception(let exception, let caught):
        return "*** \(exception.name)\(caught ? " (caught)" : ""): \(exception.reason)"
    case .observationInfo(let object, let observances, let depth):
        return String(repeating: "  ", count: depth) + "info \(object.name): \(observances.count)"
    case .explain(_, let depth):
        return String(repeating: "  ", count: depth) + "explain"
    case .graph(let objects, let depth):
        return String(repeating: "  ", count: depth) + "graph \(objects.count)"
    }
}

/// The Cocoa exception `body` raises, or nil (recording an issue for any other error).
func cocoaException(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> CocoaException? {
    do {
        try body()
    } catch ScriptError.exception(let exception) {
        return exception
    } catch {
        Issue.record("expected a Cocoa exception, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The runtime error (docs/language.md#diagnostics) `body` raises, or nil (recording an issue for any other error).
func runtimeFailure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> RuntimeFailure? {
    do {
        try body()
    } catch ScriptError.runtime(let failure) {
        return failure
    } catch {
        Issue.record("expected a runtime error, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

// MARK: Common fixtures

extension World {
    /// `class Account { var balance: Double = 0; var interestRate: Double = 0 }`
    func accountClass() -> ClassInfo {
        makeClass("Account", [stored("balance", .double), stored("interestRate", .double)])
    }

    /// `class Person { var name: String = "" }` — used as an observer.
    func personClass() -> ClassInfo {
        makeClass("Person", [stored("name", .string)])
    }

    /// `acct` (balance 100) and `alice`.
    func acctAndAlice() throws -> (acct: KVOObject, alice: KVOObject) {
        let acct = try object(accountClass(), "acct", [("balance", .double(100))])
        let alice = try object(personClass(), "alice", [("name", .string("Alice"))])
        return (acct, alice)
    }

    /// A class with no properties, for observers.
    func observerClass(_ name: String = "Watcher") -> ClassInfo {
        makeClass(name)
    }
}

/// Strings as KVC values.
func strings(_ values: String...) -> Value {
    .array(values.map(Value.string))
}

func stringSet(_ values: String...) -> Value {
    .set(ValueSet(values.map(Value.string)))
}
