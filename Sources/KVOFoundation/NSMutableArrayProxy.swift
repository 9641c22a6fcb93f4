import KVOCore

/// `mutableArrayValue(forKey:)`: every mutation notifies as the proxy does.
public final class NSMutableArrayProxy: CustomStringConvertible {
    let owner: NSObject
    let keyPath: String
    init(owner: NSObject, keyPath: String) {
        self.owner = owner
        self.keyPath = keyPath
    }

    /// The mutation is worked out under the runtime's lock too (`add` reads
    /// the count it appends at).
    private func mutate(_ mutation: @autoclosure () -> KVORuntime.ArrayMutation) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let mutation = mutation()
        process.run { try process.kvo.mutateArray(owner._kvoObject, keyPath: keyPath, mutation) }
    }

    private var contents: [Value] {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let value = process.run { try process.kvo.proxyContents(.arrayProxy(owner._kvoObject, keyPath: keyPath)) }
        if case .array(let elements) = value { return elements }
        return []
    }

    public var count: Int { contents.count }
    public subscript(index: Int) -> Any {
        _KVOProcess.shared.lock.held { _KVOBridge.swiftValue(contents[index]) ?? NSNull() }
    }
    public func object(at index: Int) -> Any { self[index] }
    public func add(_ object: Any) { mutate(.insert([_KVOBridge.value(object)], at: [count])) }
    public func insert(_ object: Any, at index: Int) { mutate(.insert([_KVOBridge.value(object)], at: [index])) }
    public func removeObject(at index: Int) { mutate(.remove(at: [index])) }
    public func removeLastObject() { mutate(.remove(at: [count - 1])) }
    public func removeAllObjects() { mutate(.remove(at: Array(0..<count))) }
    public func replaceObject(at index: Int, with object: Any) {
        mutate(.replace(at: [index], with: [_KVOBridge.value(object)]))
    }
    public func remove(_ object: Any) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let target = _KVOBridge.value(object)
        let indexes = contents.indices.filter { contents[$0] == target }
        if !indexes.isEmpty { mutate(.remove(at: indexes)) }
    }
    public var description: String { _KVOProcess.shared.lock.held { _KVOBridge.describe(.array(contents)) } }
}
