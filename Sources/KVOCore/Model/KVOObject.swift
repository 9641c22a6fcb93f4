/// What an instance keeps before its slots: 16 bytes, so that an object
/// with three stored properties is one 56-byte allocation (a 64-byte
/// malloc chunk; its slots are `PackedSlot`s). The name Apple would print
/// as an address lives in the class's `objectNames` table, since most
/// objects (a benchmark's million) never show theirs.
public struct KVOObjectHeader {
    /// The class (a reference the object holds, taken by hand), its
    /// address shifted right by 4 in the low 44 bits, and the low 20 bits
    /// of the serial (`Class#n`) above. Written once: Foundation's classes
    /// read `cls` without the process's lock.
    @usableFromInline let classWord: UInt64
    /// The observation info (held like the class) in the low 44 bits, then
    /// whether the object was released and whether it has an entry in
    /// `cls.objectNames`, the slot count's 16 bits and the serial's top 2.
    /// Changed only by the thread that observes or names the object (a
    /// compiled program's, under the process's lock).
    @usableFromInline var infoWord: UInt64

    /// Two words, not three: a three-property object is then a 56-byte
    /// allocation, a 64-byte malloc chunk, where a third word made it an
    /// 80-byte one (issue 43's million objects).
    @usableFromInline static let addressMask: UInt64 = (1 << 44) - 1
    /// Where the serial's low bits start in `classWord`.
    @usableFromInline static let classSerialShift: UInt64 = 44
    @usableFromInline static let lowSerialBits: UInt64 = 20
    @usableFromInline static let releasedBit: UInt64 = 1 << 44
    @usableFromInline static let namedBit: UInt64 = 1 << 45
    @usableFromInline static let countShift: UInt64 = 46
    @usableFromInline static let countMask: UInt64 = (1 << 16) - 1
    @usableFromInline static let highSerialShift: UInt64 = 62
    /// The serial that says "kept in `cls.largeSerials`": 2^22 − 1.
    @usableFromInline static let serialOverflow: UInt64 = (1 << 22) - 1

    /// A heap object's address in 44 bits: Swift's objects are 16-byte
    /// aligned (malloc's alignment), and user space is below 2^48.
    @inlinable
    static func packed(_ pointer: UnsafeMutableRawPointer) -> UInt64 {
        let address = UInt64(UInt(bitPattern: pointer))
        precondition(address & 15 == 0 && address >> 48 == 0, "heap address not 16-byte aligned below 2^48")
        return address >> 4
    }

    @inlinable
    static func address(_ word: UInt64) -> UInt {
        UInt(truncatingIfNeeded: (word & addressMask) << 4)
    }
}

/// An instance of a scenario class. Identity matters (observers, `==`), so a class.
///
/// Its stored properties live in the same allocation, after the header
/// (`ManagedBuffer`'s tail elements), by slot index resolved when the class
/// was declared: a separate `[Value]` cost a second allocation and its
/// 32-byte array header per object. Each is 8 bytes (`PackedSlot`), read
/// and written only here.
public final class KVOObject: ManagedBuffer<KVOObjectHeader, UInt64>, CustomStringConvertible {
    /// Most stored properties one class may have (the slot count's 16 bits).
    public static let maxSlots = Int(KVOObjectHeader.countMask)

    /// Creates an instance named `name`, or `Class#n` when `name` is nil,
    /// its slots set to the class's defaults. A scenario's class with more
    /// than `maxSlots` stored properties is refused by the checker; a
    /// compiled program's cannot have that many (swiftc would not build it).
    public static func make(cls: ClassInfo, name: String?) -> KVOObject {
        let defaults = cls.defaultSlots
        let count = min(defaults.count, maxSlots)
        cls.instanceCount += 1
        let serial = min(UInt64(truncatingIfNeeded: cls.instanceCount), KVOObjectHeader.serialOverflow)
        let lowMask: UInt64 = (1 << KVOObjectHeader.lowSerialBits) - 1
        let header = KVOObjectHeader(
            classWord: KVOObjectHeader.packed(Unmanaged.passRetained(cls).toOpaque())
                | (serial & lowMask) << KVOObjectHeader.classSerialShift,
            infoWord: UInt64(count) << KVOObjectHeader.countShift
                | (serial >> KVOObjectHeader.lowSerialBits) << KVOObjectHeader.highSerialShift)
        // `create` allocates an instance of the class it is called on.
        let object = unsafeDowncast(create(minimumCapacity: count) { _ in header }, to: KVOObject.self)
        object.withUnsafeMutablePointerToElements { slots in
            for index in 0..<count { (slots + index).initialize(to: PackedSlot.store(defaults[index])) }
        }
        if serial == KVOObjectHeader.serialOverflow {
            cls.largeSerials[ObjectIdentifier(object)] = cls.instanceCount
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
        observationInfo = nil
        let cls = self.cls
        if header.infoWord & KVOObjectHeader.namedBit != 0 { cls.objectNames[ObjectIdentifier(self)] = nil }
        if serial == KVOObjectHeader.serialOverflow { cls.largeSerials[ObjectIdentifier(self)] = nil }
        Unmanaged.passUnretained(cls).release()
    }

    /// Read from the header's word: the object holds the class (the
    /// reference taken by hand in `make`, let go of in `deinit`).
    @inlinable public var cls: ClassInfo {
        @inline(__always) get {
            unsafeBitCast(KVOObjectHeader.address(header.classWord), to: ClassInfo.self)
        }
    }

    /// nil while nobody observes the object: a set checks only this.
    @inlinable public var observationInfo: ObservationInfo? {
        @inline(__always) get {
            let address = KVOObjectHeader.address(header.infoWord)
            return address == 0 ? nil : unsafeBitCast(address, to: ObservationInfo.self)
        }
        set {
            let old = KVOObjectHeader.address(header.infoWord)
            var word = header.infoWord & ~KVOObjectHeader.addressMask
            if let newValue {
                word |= KVOObjectHeader.packed(Unmanaged.passRetained(newValue).toOpaque())
            }
            header.infoWord = word
            // Let go of the old one last: its deinit may reach this object.
            if old != 0 {
                Unmanaged<ObservationInfo>.fromOpaque(UnsafeRawPointer(bitPattern: old).unsafelyUnwrapped).release()
            }
        }
    }

    /// Set by `release(x)`: the name stays bound to a zombie.
    @inlinable public var isReleased: Bool {
        get { header.infoWord & KVOObjectHeader.releasedBit != 0 }
        set {
            if newValue {
                header.infoWord |= KVOObjectHeader.releasedBit
            } else {
                header.infoWord &= ~KVOObjectHeader.releasedBit
            }
        }
    }

    /// How many stored-property slots the object has.
    @inlinable public var slotCount: Int {
        Int(truncatingIfNeeded: header.infoWord >> KVOObjectHeader.countShift & KVOObjectHeader.countMask)
    }

    /// Its number among the instances of its class, from 1; `serialOverflow`
    /// for the 4,194,303rd on, whose numbers `cls.largeSerials` keeps.
    private var serial: UInt64 {
        header.classWord >> KVOObjectHeader.classSerialShift | (header.infoWord >> KVOObjectHeader.highSerialShift)
            << KVOObjectHeader.lowSerialBits
    }

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
            observationInfo?.derived.noteStore()
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

    /// Runs `body` on the array stored in `slot` where it is: the slot's box
    /// lets go of the array first, so an array nobody else holds changes
    /// without a copy (`o.items.append(x)`: `KVORuntime.changeArrayInPlace`).
    /// Nothing runs, and false is returned, when the slot holds no array.
    func changeArray(inSlot slot: Int, _ body: (inout PackedArray) -> Void) -> Bool {
        precondition(slot >= 0 && slot < slotCount, "slot out of range")
        let bits = withUnsafeMutablePointerToElements { $0[slot] }
        // An array is always boxed; the box is the slot's alone.
        guard PackedSlot.isBox(bits) else { return false }
        let box = PackedSlot.box(bits)
        var taken = Value.null
        swap(&taken, &box.value)
        guard case .array(var elements) = taken else {
            swap(&taken, &box.value)
            return false
        }
        taken = .null
        body(&elements)
        box.value = .array(elements)
        return true
    }

    /// The stored properties in slot order.
    public var slots: [Value] {
        withUnsafeMutablePointerToElements { slots in (0..<slotCount).map { PackedSlot.load(slots[$0]) } }
    }

    /// The display name used wherever Apple would print an address (docs/language.md#object-names).
    /// `Class#n` is spelled out the first time it is shown: most of the
    /// objects a benchmark creates (100,000 observers) never are.
    public var name: String {
        if header.infoWord & KVOObjectHeader.namedBit != 0, let assigned = cls.objectNames[ObjectIdentifier(self)] {
            return assigned
        }
        let number =
            serial == KVOObjectHeader.serialOverflow ? cls.largeSerials[ObjectIdentifier(self)] ?? 0 : Int(serial)
        let spelled = "\(cls.name)#\(number)"
        assignName(spelled)
        return spelled
    }

    /// Names the object once it exists: a compiled Swift program learns the
    /// top-level binding an object is stored in (docs/language.md#object-names)
    /// only after its initializer has returned.
    public func assignName(_ name: String) {
        cls.objectNames[ObjectIdentifier(self)] = name
        header.infoWord |= KVOObjectHeader.namedBit
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
