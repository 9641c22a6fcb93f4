import KVOCore

/// What `mutableSetValue(forKey:)` returns: a mutable set whose every
/// mutation notifies as Apple's proxy's does (SPEC §6.3's set mutations:
/// union, minus, intersect, set), each bulk method one change. It has
/// NSMutableSet's methods (Apple's `union(_:)` of a `Set<AnyHashable>` and
/// of an array alike), `contains(_:)`, `member(_:)`, `allObjects`,
/// `anyObject()`, and it iterates.
///
/// Not a subclass of Foundation's `NSMutableSet`, as Apple's proxy is:
/// swift-corelibs-foundation bridges an NSSet to a Swift `Set` by reading
/// the storage of `NSSet` and `NSMutableSet` themselves, so a subclass
/// bridges as an empty set (`as! Set<String>`, a proxy given to KVC) where
/// a Mac gives its elements. A type of its own fails such a cast loudly
/// instead.
public final class NSMutableSetProxy: Sequence, CustomStringConvertible {
    let owner: NSObject
    let keyPath: String
    init(owner: NSObject, keyPath: String) {
        self.owner = owner
        self.keyPath = keyPath
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

    public var count: Int { contents.count }

    /// The elements as Objective-C hands them to Swift (NSString, NSNumber).
    public var allObjects: [Any] {
        _KVOProcess.shared.lock.held { contents.elements.map { _KVOBridge.swiftValue($0) ?? NSNull() } }
    }

    public func anyObject() -> Any? { allObjects.first }

    /// The element equal to `object` (NSSet's `-member:`: `-isEqual:`), or nil.
    public func member(_ object: Any) -> Any? {
        _KVOProcess.shared.lock.held {
            let target = _KVOBridge.value(object)
            guard let found = contents.elements.first(where: { Value.isMember($0, target) }) else { return nil }
            return _KVOBridge.swiftValue(found) ?? NSNull()
        }
    }

    public func contains(_ anObject: Any) -> Bool { member(anObject) != nil }

    public func makeIterator() -> IndexingIterator<[Any]> { allObjects.makeIterator() }

    public func add(_ object: Any) { mutate(.union, [object]) }
    public func remove(_ object: Any) { mutate(.minus, [object]) }
    public func addObjects(from array: [Any]) { mutate(.union, array) }
    public func union(_ objects: [Any]) { mutate(.union, objects) }
    public func union(_ otherSet: Set<AnyHashable>) { mutate(.union, otherSet.map(\.base)) }
    public func minus(_ objects: [Any]) { mutate(.minus, objects) }
    public func minus(_ otherSet: Set<AnyHashable>) { mutate(.minus, otherSet.map(\.base)) }
    public func intersect(_ objects: [Any]) { mutate(.intersect, objects) }
    public func intersect(_ otherSet: Set<AnyHashable>) { mutate(.intersect, otherSet.map(\.base)) }
    public func setSet(_ objects: [Any]) { mutate(.set, objects) }
    public func setSet(_ otherSet: Set<AnyHashable>) { mutate(.set, otherSet.map(\.base)) }
    public func removeAllObjects() { mutate(.set, []) }

    public var description: String {
        _KVOProcess.shared.lock.held { _KVOBridge.describe(.set(contents)) }
    }
}
