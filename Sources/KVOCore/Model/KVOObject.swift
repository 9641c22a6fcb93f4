/// An instance of a scenario class. Identity matters (observers, `==`), so a class.
public final class KVOObject: CustomStringConvertible {
    public let cls: ClassInfo
    /// Stored properties by slot index, resolved when the class was declared.
    public var slots: [Value]
    /// The display name used wherever Apple would print an address (docs/language.md#object-names).
    /// `Class#n` is spelled out the first time it is shown: most of the
    /// objects a benchmark creates (100,000 observers) never are.
    public var name: String {
        if let assignedName { return assignedName }
        let spelled = "\(cls.name)#\(serial)"
        assignedName = spelled
        return spelled
    }
    private var assignedName: String?
    /// Its number among the instances of its class, from 1.
    private let serial: Int
    /// nil while nobody observes the object: a set checks only this.
    public var observationInfo: ObservationInfo?
    /// Set by `release(x)`: the name stays bound to a zombie.
    public var isReleased = false

    /// Creates an instance named `name`, or `Class#n` when `name` is nil.
    public init(cls: ClassInfo, name: String?) {
        self.cls = cls
        cls.instanceCount += 1
        self.assignedName = name
        self.serial = cls.instanceCount
        self.slots = cls.defaultSlots
    }

    deinit {
        // Slots may hold arrays nested millions deep, which Swift would free
        // recursively.
        for index in slots.indices { Value.dispose(&slots[index]) }
    }

    /// Names the object once it exists: a compiled Swift program learns the
    /// top-level binding an object is stored in (docs/language.md#object-names)
    /// only after its initializer has returned.
    public func assignName(_ name: String) { assignedName = name }

    /// `<Account: acct>`, the object's `-description`.
    public var description: String { "<\(cls.runtimeName): \(name)>" }
    /// `<Account acct>`, Apple's `<%@ %p>` with the name in place of the pointer.
    public var pointerDescription: String { "<\(cls.runtimeName) \(name)>" }

    /// The one check of a use after `release(x)` (KVC, the engine, the
    /// interpreter's member access and built-ins): a runtime error.
    @inline(__always)
    public func checkAlive() throws {
        if isReleased { throw ScriptError.runtime(usedAfterRelease) }
    }

    /// What using the object after its release says (a compiled program
    /// ends with it).
    public var usedAfterRelease: String { "use of released object \(description)" }
}
