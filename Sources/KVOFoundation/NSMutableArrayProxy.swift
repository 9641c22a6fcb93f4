import KVOCore

/// What `mutableArrayValue(forKey:)` returns: an `NSMutableArray` whose every
/// mutation notifies as Apple's proxy's does (SPEC §6.3's proxy operations,
/// the engine's). A subclass of Foundation's class, as on a Mac, so that it is passed
/// where an `NSMutableArray` is expected and casts (`as! [String]`) copy its
/// elements. The `IndexSet` methods are one change each, with every index.
///
/// Internal, so that no program names it: Foundation's required initializers
/// (decoding, literals) are unreachable, and trap if reached.
final class NSMutableArrayProxy: NSMutableArray {
    let owner: NSObject
    let keyPath: String

    init(owner: NSObject, keyPath: String) {
        self.owner = owner
        self.keyPath = keyPath
        super.init()
    }

    required init(coder: NSCoder) {
        preconditionFailure("a mutable array proxy is made by mutableArrayValue(forKey:) only")
    }

    required init(objects: UnsafePointer<AnyObject>?, count: Int) {
        preconditionFailure("a mutable array proxy is made by mutableArrayValue(forKey:) only")
    }

    required convenience init(arrayLiteral elements: Any...) {
        preconditionFailure("a mutable array proxy is made by mutableArrayValue(forKey:) only")
    }

    /// The mutation is worked out under the runtime's lock too (`add` reads
    /// the count it appends at).
    private func mutate(_ mutation: @autoclosure () -> KVORuntime.ArrayMutation) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let mutation = mutation()
        process.run { try process.kvo.mutateArray(owner._kvoObject, keyPath: keyPath, mutation) }
    }

    /// The array behind the proxy, shared, not copied: `count` and
    /// `object(at:)` read it on every call.
    private var contents: PackedArray {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let value = process.run { try process.kvo.proxyContents(.arrayProxy(owner._kvoObject, keyPath: keyPath)) }
        if case .array(let elements) = value { return elements }
        return PackedArray()
    }

    // NSArray's primitives, which every other method of Foundation's uses.
    override var count: Int { contents.count }
    override func object(at index: Int) -> Any {
        _KVOProcess.shared.lock.held { _KVOBridge.swiftValue(contents[index]) ?? NSNull() }
    }
    override subscript(index: Int) -> Any {
        get { object(at: index) }
        set { replaceObject(at: index, with: newValue) }
    }

    // NSMutableArray's primitives, and its bulk methods as one change each.
    override func add(_ object: Any) { mutate(.insert([_KVOBridge.value(object)], at: [count])) }
    override func insert(_ object: Any, at index: Int) {
        mutate(.insert([_KVOBridge.value(object)], at: [index]))
    }
    override func insert(_ objects: [Any], at indexes: IndexSet) {
        mutate(.insert(objects.map { _KVOBridge.value($0) }, at: Array(indexes)))
    }
    override func addObjects(from otherArray: [Any]) {
        mutate(.insert(otherArray.map { _KVOBridge.value($0) }, at: Array(count..<(count + otherArray.count))))
    }
    override func removeObject(at index: Int) { mutate(.remove(at: [index])) }
    override func removeObjects(at indexes: IndexSet) { mutate(.remove(at: Array(indexes))) }
    override func removeLastObject() { mutate(.remove(at: [count - 1])) }
    override func removeAllObjects() { mutate(.remove(at: Array(0..<count))) }
    override func replaceObject(at index: Int, with object: Any) {
        mutate(.replace(at: [index], with: [_KVOBridge.value(object)]))
    }
    override func replaceObjects(at indexes: IndexSet, with objects: [Any]) {
        mutate(.replace(at: Array(indexes), with: objects.map { _KVOBridge.value($0) }))
    }
    override func remove(_ object: Any) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let target = _KVOBridge.value(object)
        let indexes = Self.indexes(of: target, in: contents)
        if !indexes.isEmpty { mutate(.remove(at: indexes)) }
    }

    /// Where `target` is in `elements`. A function of its own: the contents
    /// are let go of before the mutation, which then changes the array in
    /// place instead of copying it.
    private static func indexes(of target: Value, in elements: PackedArray) -> [Int] {
        elements.indices.filter { elements[$0] == target }
    }

    override var description: String {
        _KVOProcess.shared.lock.held { _KVOBridge.describe(.array(contents)) }
    }
}
