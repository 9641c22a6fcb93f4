import KVOCore

/// What `mutableSetValue(forKey:)` returns: an `NSMutableSet` whose every
/// mutation notifies as Apple's proxy's does (SPEC §6.3's set mutations:
/// union, minus, intersect, set). A subclass of Foundation's class, as on a
/// Mac, so that it is passed where an `NSMutableSet` is expected, iterates
/// (`for tag in tags`), answers `contains(_:)`, `member(_:)`, `allObjects`
/// and `anyObject()`, and takes Apple's `union(_:)`, `minus(_:)`,
/// `intersect(_:)` and `setSet(_:)` of a `Set<AnyHashable>`. Each bulk
/// method is one change.
///
/// Internal, so that no program names it: Foundation's required initializers
/// (decoding, capacity, literals) are unreachable, and trap if reached.
final class NSMutableSetProxy: NSMutableSet {
    let owner: NSObject
    let keyPath: String

    init(owner: NSObject, keyPath: String) {
        self.owner = owner
        self.keyPath = keyPath
        super.init(objects: [], count: 0)
    }

    required init(capacity numItems: Int) {
        preconditionFailure("a mutable set proxy is made by mutableSetValue(forKey:) only")
    }

    required convenience init?(coder: NSCoder) {
        preconditionFailure("a mutable set proxy is made by mutableSetValue(forKey:) only")
    }

    required convenience init(arrayLiteral elements: Any...) {
        preconditionFailure("a mutable set proxy is made by mutableSetValue(forKey:) only")
    }

    private func mutate(_ mutation: SetMutation, _ objects: [Any]) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let values = ValueSet(objects.map { _KVOBridge.value($0) })
        process.run { try process.kvo.mutateSet(owner._kvoObject, keyPath: keyPath, mutation, values) }
    }

    /// The set behind the proxy, read through KVC on every call, as Apple's
    /// proxy reads it for a property without set accessors.
    private var contents: ValueSet {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let value = process.run { try process.kvo.proxyContents(.setProxy(owner._kvoObject, keyPath: keyPath)) }
        if case .set(let set) = value { return set }
        return ValueSet()
    }

    // NSSet's primitives, which every other method of Foundation's uses.
    override var count: Int { contents.count }

    override func member(_ object: Any) -> Any? {
        _KVOProcess.shared.lock.held {
            let target = _KVOBridge.value(object)
            guard let found = contents.elements.first(where: { Value.isMember($0, target) }) else { return nil }
            return _KVOBridge.swiftValue(found) ?? NSNull()
        }
    }

    override func objectEnumerator() -> NSEnumerator {
        let elements = _KVOProcess.shared.lock.held { contents.elements.map { _KVOBridge.swiftValue($0) ?? NSNull() } }
        return NSArray(array: elements).objectEnumerator()
    }

    // NSMutableSet's primitives, and its bulk methods as one change each.
    override func add(_ object: Any) { mutate(.union, [object]) }
    override func remove(_ object: Any) { mutate(.minus, [object]) }
    override func addObjects(from array: [Any]) { mutate(.union, array) }
    override func union(_ otherSet: Set<AnyHashable>) { mutate(.union, otherSet.map(\.base)) }
    override func minus(_ otherSet: Set<AnyHashable>) { mutate(.minus, otherSet.map(\.base)) }
    override func intersect(_ otherSet: Set<AnyHashable>) { mutate(.intersect, otherSet.map(\.base)) }
    override func setSet(_ otherSet: Set<AnyHashable>) { mutate(.set, otherSet.map(\.base)) }
    override func removeAllObjects() { mutate(.set, []) }

    override var description: String {
        _KVOProcess.shared.lock.held { _KVOBridge.describe(.set(contents)) }
    }
}
