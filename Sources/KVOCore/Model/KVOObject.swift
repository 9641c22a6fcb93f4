/// What an instance keeps before its slots: 24 bytes, so that an object
/// with three stored properties is one 64-byte allocation (an 80-byte
/// malloc chunk; its slots are `PackedSlot`s). The name Apple would print
/// as an address lives in the class's `objectNames` table, since most
/// objects (a benchmark's million) never show theirs.
public struct KVOObjectHeader {
    @usableFromInline let cls: ClassInfo
    @usableFromInline var observationInfo: ObservationInfo?
    /// The serial (`Class#n`) in the low 40 bits, the slot count in the
    /// next 22, then whether the object was released and whether it has an
    /// entry in `cls.objectNames`.
    @usableFromInline var bits: UInt64

    @usableFromInline static let serialMask: UInt64 = (1 << 40) - 1
    @usableFromInline static let countShift: UInt64 = 40
    @usableFromInline static let countMask: UInt64 = (1 << 22) - 1
    @usableFromInline static let releasedBit: UInt64 = 1 << 62
    @usableFromInline static let namedBit: UInt64 = 1 << 63
}

/// An instance of a scenario class. Identity matters (observers, `==`), so a class.
///
/// Its stored properties live in the same allocation, after the header
/// (`ManagedBuffer`'s tail elements), by slot index resolved when the class
/// was declared: a separate `[Value]` cost a second allocation and its
/// 32-byte array header per object. Each is 8 bytes (`PackedSlot`), read
/// and written only here.
public final class KVOObject: ManagedBuffer<KVOObjectHeader, UInt64>, CustomStringConvertible {
    /// Most stored properties one class may have (the slot count's 22 bits).
    public static let maxSlots = Int(KVOObjectHeader.countMask)

    /// Creates an instance named `name`, or `Class#n` when `name` is nil,
    /// its slots set to the class's defaults. A scenario's class with more
    /// than `maxSlots` stored properties is refused by the checker; a
    /// compiled program's cannot have that many (swiftc would not build it).
    public static func make(cls: ClassInfo, name: String?) -> KVOObject {
        let defaults = cls.defaultSlots
        let count = min(defaults.count, maxSlots)
        cls.instanceCount += 1
        let serial = UInt64(truncatingIfNeeded: cls.instanceCount) & KVOObjectHeader.serialMask
        let header = KVOObjectHeader(
            cls: cls, observationInfo: nil, bits: serial | UInt64(count) << KVOObjectHeader.countShift)
        // `create` allocates an instance of the class it is called on.
        let object = unsafeDowncast(create(minimumCapacity: count) { _ in header }, to: KVOObject.self)
        object.withUnsafeMutablePointerToElements { slots in
            for index in 0..<count { (slots + index).initialize(to: PackedSlot.store(defaults[index])) }
        }
        if let name { object.assignName(name) }
        return object
    }

    deinit {
        let count = slotCount
        withUnsafeMutablePointerToElements { slots in
            // Slots may hold arrays nested millions deep, which Swift would
            // free recursively: `release` lets go of them as `Value.dispose` does.
            for index in 0..<count { PackedSlot.release(slots[index]) }
        }
        if header.bits & KVOObjectHeader.namedBit != 0 { cls.objectNames[ObjectIdentifier(self)] = nil }
    }

    @inlinable public var cls: ClassInfo { header.cls }

    /// nil while nobody observes the object: a set checks only this.
    @inlinable public var observationInfo: ObservationInfo? {
        get { header.observationInfo }
        set { header.observationInfo = newValue }
    }

    /// Set by `release(x)`: the name stays bound to a zombie.
    @inlinable public var isReleased: Bool {
        get { header.bits & KVOObjectHeader.releasedBit != 0 }
        set {
            if newValue {
                header.bits |= KVOObjectHeader.releasedBit
            } else {
                header.bits &= ~KVOObjectHeader.releasedBit
            }
        }
    }

    /// How many stored-property slots the object has.
    @inlinable public var slotCount: Int {
        Int(truncatingIfNeeded: header.bits >> KVOObjectHeader.countShift & KVOObjectHeader.countMask)
    }

    /// Its number among the instances of its class, from 1.
    private var serial: UInt64 { header.bits & KVOObjectHeader.serialMask }

    /// The stored property in `slot`. A slot past the object's count is a
    /// defect of the caller (slots are resolved from the object's class),
    /// stopped here as `[Value]`'s bounds check stopped it. Set, the old
    /// value is let go of last, a collection without recursion (as
    /// `Value.replace` does). No `_modify`: a coroutine's frame that holds
    /// a `Value` is allocated on the heap, once per set. A collection is
    /// changed in place by reading it, setting the slot to `.null` (its
    /// storage then has one holder) and storing it back.
    @inlinable public subscript(slot slot: Int) -> Value {
        @inline(__always) get {
            precondition(slot >= 0 && slot < slotCount, "slot out of range")
            return PackedSlot.load(withUnsafeMutablePointerToElements { $0[slot] })
        }
        @inline(__always) set {
            precondition(slot >= 0 && slot < slotCount, "slot out of range")
            // What was derived from the slots may no longer hold.
            header.observationInfo?.derived.noteStore()
            let stored = withUnsafeMutablePointerToElements { $0 + slot }
            let old = stored.pointee
            if let bits = PackedSlot.inline(newValue) {
                stored.pointee = bits
                PackedSlot.release(old)
            } else if PackedSlot.isBox(old) {
                // A string replacing a string: its box is reused.
                var previous = newValue
                swap(&previous, &PackedSlot.box(old).value)
                Value.dispose(&previous)
            } else {
                stored.pointee = PackedSlot.boxed(newValue)
                PackedSlot.release(old)
            }
        }
    }

    /// The stored properties in slot order.
    public var slots: [Value] {
        withUnsafeMutablePointerToElements { slots in (0..<slotCount).map { PackedSlot.load(slots[$0]) } }
    }

    /// The display name used wherever Apple would print an address (docs/language.md#object-names).
    /// `Class#n` is spelled out the first time it is shown: most of the
    /// objects a benchmark creates (100,000 observers) never are.
    public var name: String {
        if header.bits & KVOObjectHeader.namedBit != 0, let assigned = cls.objectNames[ObjectIdentifier(self)] {
            return assigned
        }
        let spelled = "\(cls.name)#\(serial)"
        assignName(spelled)
        return spelled
    }

    /// Names the object once it exists: a compiled Swift program learns the
    /// top-level binding an object is stored in (docs/language.md#object-names)
    /// only after its initializer has returned.
    public func assignName(_ name: String) {
        cls.objectNames[ObjectIdentifier(self)] = name
        header.bits |= KVOObjectHeader.namedBit
    }

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
