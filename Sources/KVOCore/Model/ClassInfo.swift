/// A declared class: its properties resolved to slots once, at declaration, and
/// the hooks a scenario overrides. Behaviour written in the scenario language
/// (computed getters, custom setters, methods) arrives as closures, so this
/// module never parses or interprets anything.
public final class ClassInfo {
    public let name: String
    public let superclass: ClassInfo?
    /// The Objective-C name Foundation prints: a Swift class's is `main.Account`.
    public var runtimeName: String
    /// Properties this class declares, in declaration order. Inherited ones
    /// are found through the superclass, not copied: a chain of 20,000
    /// classes would otherwise hold 200 million entries.
    private var ownProperties: [PropertyInfo] = []
    /// Number of stored-property slots an instance needs.
    public private(set) var slotCount = 0
    /// Objects of this class created so far, for `Class#n` names.
    public var instanceCount = 0
    /// The names of this class's objects that have one (assigned, or
    /// `Class#n` once spelled out), removed when the object goes.
    var objectNames: [ObjectIdentifier: String] = [:]
    /// The serials of objects past the 4,194,302nd (`KVOObjectHeader`
    /// keeps 22 bits of one), removed when the object goes.
    var largeSerials: [ObjectIdentifier: Int] = [:]
    /// What the classes of one hierarchy share (`ClassHierarchy`).
    private let hierarchy: ClassHierarchy
    /// Positions in `ownProperties` by name.
    private var ownIndex: [String: Int] = [:]

    /// Hooks this class declares itself; `hook(_:)` finds inherited ones.
    public var ownHooks = Hooks() {
        didSet { hierarchy.hookChanges &+= 1 }
    }
    private var automaticCache: [String: Bool] = [:]
    private var affectingCache: [String: [[String]]] = [:]

    /// The overridable NSObject methods of docs/language.md#hooks that a class declares
    /// (inherited ones included).
    public struct Hooks {
        public typealias ObserveValue = (
            _ observer: KVOObject, _ keyPath: String, _ object: KVOObject, _ change: Change, _ context: Context?
        ) throws -> Void
        public var observeValue: ObserveValue?
        public var setNilValueForKey: ((KVOObject, String) throws -> Void)?
        public var valueForUndefinedKey: ((KVOObject, String) throws -> Value)?
        public var setValueForUndefinedKey: ((KVOObject, Value, String) throws -> Void)?
        public var automaticallyNotifiesObservers: ((String) throws -> Bool)?
        public var keyPathsForValuesAffecting: ((String) throws -> [String])?
        /// Zero-argument methods, which KVC finds as getters (`-key`).
        public var getterMethods: [String: (KVOObject) throws -> Value] = [:]
        /// One-argument methods, which KVC finds as setters (`-setKey:`) and
        /// as `-objectInKeyAtIndex:`.
        public var oneArgumentMethods: [String: (KVOObject, Value) throws -> Value] = [:]
        public init() {}
    }

    public init(name: String, superclass: ClassInfo?) {
        self.name = name
        self.superclass = superclass
        self.runtimeName = name
        hierarchy = superclass?.hierarchy ?? ClassHierarchy()
        slotCount = superclass?.slotCount ?? 0
    }

    /// Adds (or, for an override, replaces) a property; stored ones get the next slot.
    @discardableResult
    public func addProperty(_ property: PropertyInfo) -> PropertyInfo {
        if case .stored = property.storage {
            property.storage = .stored(slot: slotCount)
            slotCount += 1
        }
        if let index = ownIndex[property.name] {
            ownProperties[index] = property
        } else {
            ownIndex[property.name] = ownProperties.count
            ownProperties.append(property)
        }
        hierarchy.names.insert(property.name)
        if property.name.hasPrefix("get") { hierarchy.hasGetNames = true }
        property.hierarchy = hierarchy
        hierarchy.propertyGeneration &+= 1
        return property
    }

    /// Every property, inherited ones first (an override in its
    /// superclass's place), then this class's own.
    public var properties: [PropertyInfo] {
        if propertiesGeneration != hierarchy.propertyGeneration {
            let chain = Array(lineage)
            var all: [PropertyInfo] = []
            var index: [String: Int] = [:]
            for cls in chain.reversed() {
                for property in cls.ownProperties {
                    if let position = index[property.name] {
                        all[position] = property
                    } else {
                        index[property.name] = all.count
                        all.append(property)
                    }
                }
            }
            cachedProperties = all
            propertiesGeneration = hierarchy.propertyGeneration
        }
        return cachedProperties
    }
    private var cachedProperties: [PropertyInfo] = []
    private var propertiesGeneration = -1

    /// A new instance's slots: every stored property's default, built once
    /// per class rather than property by property for each object.
    public var defaultSlots: [Value] {
        if slotsGeneration != hierarchy.propertyGeneration {
            var slots = [Value](repeating: .null, count: slotCount)
            for property in properties {
                if let slot = property.slot, slot < slots.count { slots[slot] = property.defaultValue }
            }
            cachedSlots = slots
            slotsGeneration = hierarchy.propertyGeneration
        }
        return cachedSlots
    }
    private var cachedSlots: [Value] = []
    private var slotsGeneration = -1

    public func property(named name: String) -> PropertyInfo? {
        // Key paths ask for the same few keys over and over: comparing a short
        // string is far cheaper than hashing it.
        if let last = lastLookup, last.name == name { return last }
        if resolvedGeneration != hierarchy.propertyGeneration {
            resolved = [:]
            resolvedGeneration = hierarchy.propertyGeneration
        }
        if let found = resolved[name] {
            lastLookup = found
            return found
        }
        guard hierarchy.names.contains(name) else { return nil }
        for cls in lineage {
            if let index = cls.ownIndex[name] {
                let found = cls.ownProperties[index]
                resolved[name] = found
                lastLookup = found
                return found
            }
        }
        return nil
    }

    private var lastLookup: PropertyInfo?
    /// Properties found by name so far (own and inherited).
    private var resolved: [String: PropertyInfo] = [:]
    private var resolvedGeneration = -1

    /// This class, then its superclass, and so on up to the root: every
    /// walk up the hierarchy goes through it.
    public var lineage: Lineage { Lineage(current: self) }

    public struct Lineage: Sequence, IteratorProtocol {
        fileprivate var current: ClassInfo?
        public mutating func next() -> ClassInfo? {
            guard let cls = current else { return nil }
            current = cls.superclass
            return cls
        }
    }

    public func isSubclass(of other: ClassInfo) -> Bool {
        lineage.contains { $0 === other }
    }

    /// The nearest declaration of a hook, from this class up to NSObject.
    /// Picked by a closure, not a key path: the runtime builds each key
    /// path literal on its first use, about 70,000 instructions apiece, and
    /// an empty scenario asked for three (a tenth of its start-up).
    public func hook<T>(_ pick: (Hooks) -> T?) -> T? {
        for cls in lineage {
            if let found = pick(cls.ownHooks) { return found }
        }
        return nil
    }

    /// `observeValue`, looked up through the superclasses once per change of
    /// any class's hooks, not once per notification.
    public var observeValueHook: Hooks.ObserveValue? {
        if cachedHookGeneration != hierarchy.hookChanges {
            cachedObserveValue = hook { $0.observeValue }
            cachedHookGeneration = hierarchy.hookChanges
        }
        return cachedObserveValue
    }
    private var cachedObserveValue: Hooks.ObserveValue?

    /// `observeValueHook != nil` without copying the closure: a quiet
    /// delivery asks it once per notification.
    public var hasObserveValueHook: Bool {
        if cachedHookGeneration == hierarchy.hookChanges { return cachedObserveValue != nil }
        return observeValueHook != nil
    }
    private var cachedHookGeneration = -1

    /// A zero-argument method KVC can use as the getter `-key`.
    public func getterMethod(_ key: String) -> ((KVOObject) throws -> Value)? {
        lineage.lazy.compactMap { $0.ownHooks.getterMethods[key] }.first
    }

    /// A one-argument method KVC can use as a setter (`-setKey:`) or as
    /// `-objectInKeyAtIndex:`.
    public func oneArgumentMethod(_ name: String) -> ((KVOObject, Value) throws -> Value)? {
        lineage.lazy.compactMap { $0.ownHooks.oneArgumentMethods[name] }.first
    }

    /// What KVC's getter search finds under one name: a property's getter
    /// or a zero-argument method.
    public enum Getter {
        case property(PropertyInfo)
        case method((KVOObject) throws -> Value)
    }

    /// The property or zero-argument method `name` (a property KVC sees).
    public func getter(named name: String) -> Getter? {
        if let property = property(named: name), !property.kvcHidden { return .property(property) }
        if let method = getterMethod(name) { return .method(method) }
        return nil
    }

    /// The property that `value(forKey: key)` reads, when a plain property
    /// read gives it: nil when a `get<Key>` method or property comes first
    /// in KVC's search (or there is no such property).
    public func kvcProperty(named key: String) -> PropertyInfo? {
        guard let property = property(named: key) else { return nil }
        if hierarchy.hasGetNames || accessorNames.get, getter(named: "get" + KeyPaths.capitalized(key)) != nil {
            return nil
        }
        return property
    }

    /// The one-argument method `set<Key>`, which `setValue(_:forKey:)`
    /// prefers to the property's own setter. The name is only built when
    /// this class or a superclass has a method named `set…`.
    public func setterMethod(forKey key: String) -> ((KVOObject, Value) throws -> Value)? {
        guard accessorNames.set else { return nil }
        return oneArgumentMethod("set" + KeyPaths.capitalized(key))
    }

    /// Whether this class or a superclass has a zero-argument method named
    /// `get…` and a one-argument method named `set…`, worked out again only
    /// after hooks change (at declaration, not per KVC call).
    private var accessorNames: (get: Bool, set: Bool) {
        if accessorNamesGeneration != hierarchy.hookChanges {
            var get = false
            var set = false
            for cls in lineage {
                get = get || cls.ownHooks.getterMethods.keys.contains { $0.hasPrefix("get") }
                set = set || cls.ownHooks.oneArgumentMethods.keys.contains { $0.hasPrefix("set") }
            }
            cachedAccessorNames = (get, set)
            accessorNamesGeneration = hierarchy.hookChanges
        }
        return cachedAccessorNames
    }
    private var cachedAccessorNames = (get: false, set: false)
    private var accessorNamesGeneration = -1

    /// The instance variable `name`: a stored property `p` has the ivar `_p`.
    public func ivar(named name: String) -> PropertyInfo? {
        guard name.utf8.first == UInt8(ascii: "_"),
            let property = property(named: String(name.dropFirst())), property.slot != nil, !property.kvcHidden
        else { return nil }
        return property
    }

    /// `+automaticallyNotifiesObserversForKey:`, asked once per key and cached as
    /// Foundation does.
    public func automaticallyNotifies(forKey key: String) throws -> Bool {
        if let cached = automaticCache[key] { return cached }
        let result: Bool
        if let hook = hook({ $0.automaticallyNotifiesObservers }) {
            result = try hook(key)
        } else {
            result = defaultAutomaticallyNotifies(forKey: key)
        }
        automaticCache[key] = result
        return result
    }

    /// The same answer for a property, cached on it for the setter's fast path.
    public func automaticallyNotifies(_ property: PropertyInfo) throws -> Bool {
        if property.automaticClass == ObjectIdentifier(self) { return property.automatic }
        let result = try automaticallyNotifies(forKey: property.name)
        property.automaticClass = ObjectIdentifier(self)
        property.automatic = result
        return result
    }

    /// NSObject's answer, which honours `@manual`.
    public func defaultAutomaticallyNotifies(forKey key: String) -> Bool {
        !(property(named: key)?.isManual ?? false)
    }

    /// `+keyPathsForValuesAffectingValueForKey:`, each path split into components.
    public func keyPathsAffecting(_ key: String) throws -> [[String]] {
        if let cached = affectingCache[key] { return cached }
        let paths: [String]
        if let hook = hook({ $0.keyPathsForValuesAffecting }) {
            paths = try hook(key)
        } else {
            paths = defaultKeyPathsAffecting(key)
        }
        let split = paths.map { KeyPaths.components($0) }.filter { !$0.isEmpty }
        affectingCache[key] = split
        return split
    }

    /// NSObject's answer, which honours `@affectedBy`.
    public func defaultKeyPathsAffecting(_ key: String) -> [String] {
        property(named: key)?.affectedBy ?? []
    }

    /// Every key path affecting `key`, following single-key dependencies transitively
    /// (LabColor: color ← redComponent ← lComponent). Cycles terminate.
    public func dependencyClosure(of key: String) throws -> [[String]] {
        try computeDependencyClosure(of: key, limit: nil) ?? []
    }

    /// What observing `key` involves, computed once per key: registering an
    /// observer (100,000 of them in B3) and re-registering forwards reuse it.
    public func dependencies(of key: String) throws -> KeyDependencies {
        // Comparing with the last key is cheaper than hashing it.
        if let last = lastDependencies, last.key == key { return last.value }
        let result: KeyDependencies
        if let cached = dependencyCache[key] {
            result = cached
        } else {
            result = try computeDependencies(of: key)
            dependencyCache[key] = result
        }
        lastDependencies = (key, result)
        return result
    }

    private var dependencyCache: [String: KeyDependencies] = [:]
    private var lastDependencies: (key: String, value: KeyDependencies)?

    /// Affecting key paths a key's closure may hold and still be kept whole
    /// on the key; past it the closure is not stored: a chain of 10,000
    /// dependent keys, each observed, held 50 million paths (1.4 GB).
    static let storedClosureLimit = 64

    private func computeDependencies(of key: String) throws -> KeyDependencies {
        if let closure = try computeDependencyClosure(of: key, limit: Self.storedClosureLimit) {
            return KeyDependencies(key: key, closure: closure)
        }
        // A large closure: explored once into the class's dependency graph,
        // which answers "does a change of K reach this key?" (`affects`).
        try exploreDependencies(from: key)
        let relationshipPaths =
            dependencyGraph.relationshipKeys == 0
            ? [] : (try computeDependencyClosure(of: key, limit: nil) ?? []).filter { $0.count > 1 }
        return KeyDependencies(key: key, relationshipPaths: relationshipPaths)
    }

    /// Every affecting key path of `key`, transitively through single keys,
    /// in discovery order; nil when there are more than `limit`.
    private func computeDependencyClosure(of key: String, limit: Int?) throws -> [[String]]? {
        var result: [[String]] = []
        // Hashed, not `result.contains`: a chain of 3,000 dependent keys was
        // quadratic per observed key.
        var seenPaths: Set<[String]> = []
        var seenKeys: Set<String> = [key]
        var queue = [key]
        while let next = queue.popLast() {
            for path in try keyPathsAffecting(next) where seenPaths.insert(path).inserted {
                result.append(path)
                if let limit, result.count > limit { return nil }
                if path.count == 1, seenKeys.insert(path[0]).inserted {
                    queue.append(path[0])
                }
            }
        }
        return result
    }

    /// The affecting key paths of the keys whose closure was too large to
    /// store, as a graph walked backwards: which keys a change reaches.
    private var dependencyGraph = DependencyGraph()

    private struct DependencyGraph {
        /// Keys whose affecting paths are recorded below.
        var explored: Set<String> = []
        /// For a key K: the keys with an affecting path starting with K.
        var dependents: [String: [String]] = [:]
        /// For a key K: the keys with the single-key affecting path K.
        var singleDependents: [String: [String]] = [:]
        /// Explored keys with an affecting path through a relationship.
        var relationshipKeys = 0
        /// Changes with every key explored: `reached` is valid for one version.
        var version = 0
        var reached: [String: Set<String>] = [:]
        var reachedVersion = 0
        var reachedSize = 0
    }

    /// Records the affecting paths of `key` and of every key its closure goes
    /// through, each key once per class.
    private func exploreDependencies(from key: String) throws {
        guard !dependencyGraph.explored.contains(key) else { return }
        var queue = [key]
        dependencyGraph.explored.insert(key)
        dependencyGraph.version &+= 1
        while let next = queue.popLast() {
            var throughRelationship = false
            for path in try keyPathsAffecting(next) {
                dependencyGraph.dependents[path[0], default: []].append(next)
                if path.count == 1 {
                    dependencyGraph.singleDependents[path[0], default: []].append(next)
                    if dependencyGraph.explored.insert(path[0]).inserted { queue.append(path[0]) }
                } else {
                    throughRelationship = true
                }
            }
            if throughRelationship { dependencyGraph.relationshipKeys += 1 }
        }
    }

    /// Whether a change of `changed` notifies an observer of `observed`, a key
    /// whose closure was too large to store (`KeyDependencies.triggers` nil):
    /// `observed` is `changed`, or reaches through single keys a key with an
    /// affecting path starting with `changed`. The keys a change reaches are
    /// found once per changed key, and kept while the graph stays the same
    /// and they stay within a budget.
    func affects(_ changed: String, _ observed: String) -> Bool {
        if changed == observed { return true }
        if dependencyGraph.reachedVersion != dependencyGraph.version || dependencyGraph.reachedSize > 1 << 20 {
            dependencyGraph.reached = [:]
            dependencyGraph.reachedSize = 0
            dependencyGraph.reachedVersion = dependencyGraph.version
        }
        if let reached = dependencyGraph.reached[changed] { return reached.contains(observed) }
        var reached: Set<String> = []
        var queue = dependencyGraph.dependents[changed] ?? []
        for key in queue { reached.insert(key) }
        while let next = queue.popLast() {
            for dependent in dependencyGraph.singleDependents[next] ?? [] where reached.insert(dependent).inserted {
                queue.append(dependent)
            }
        }
        dependencyGraph.reached[changed] = reached
        dependencyGraph.reachedSize += reached.count + 1
        return reached.contains(observed)
    }
}
