import KVOCore

/// `mutableSetValue(forKey:)`.
public final class NSMutableSetProxy: CustomStringConvertible {
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

    public var count: Int {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let value = process.run { try process.kvo.proxyContents(.setProxy(owner._kvoObject, keyPath: keyPath)) }
        if case .set(let set) = value { return set.count }
        return 0
    }
    public func add(_ object: Any) { mutate(.union, [object]) }
    public func remove(_ object: Any) { mutate(.minus, [object]) }
    public func union(_ objects: [Any]) { mutate(.union, objects) }
    public func minus(_ objects: [Any]) { mutate(.minus, objects) }
    public func intersect(_ objects: [Any]) { mutate(.intersect, objects) }
    public func setSet(_ objects: [Any]) { mutate(.set, objects) }
    public func removeAllObjects() { mutate(.set, []) }
    public var description: String {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        return _KVOBridge.describe(
            process.run { try process.kvo.proxyContents(.setProxy(owner._kvoObject, keyPath: keyPath)) })
    }
}
