/// A stored property's value as an object keeps it: 8 bytes instead of
/// `Value`'s 16, so that an object with three properties is a 64-byte
/// allocation (an 80-byte malloc chunk) instead of 88 (96). Issue 43's
/// million objects: 112 → 96 bytes each.
///
/// NaN-boxed: a Double is its own bits, and everything else lives in the
/// negative quiet NaNs whose top 16 bits are 0xFFF9 or more, which no
/// arithmetic produces (x86's default NaN is 0xFFF8…, Swift's `.nan`
/// 0x7FF8…). Their low 48 bits hold
/// - an object's address (user space is below 2^48 on x86-64 and arm64),
/// - an Int in -2^47..<2^47, a Float, null, false, true or observing options,
/// - or the address of a `SlotBox` holding any other `Value` (a string, an
///   array, a set, a larger Int, a Double with one of those NaN patterns).
///
/// The object and the box are retained by hand (`Unmanaged`): a slot is
/// written only by its owner, `KVOObject` or `PackedArray`, through
/// `store`, `inline`, `boxed`, `copy` and `release`.
/// Hand-rolled because Swift lays out an enum with an Int or a Double
/// payload in 9 bytes (16 in an array), and no library packs one smaller.
@usableFromInline
struct PackedSlot {
    @usableFromInline static let tagShift: UInt64 = 48
    @usableFromInline static let payloadMask: UInt64 = (1 << 48) - 1
    /// The first tag: a Double's top 16 bits are below it.
    @usableFromInline static let firstTag: UInt64 = 0xFFF9
    @usableFromInline static let objectTag: UInt64 = 0xFFF9
    @usableFromInline static let boxTag: UInt64 = 0xFFFA
    @usableFromInline static let intTag: UInt64 = 0xFFFB
    @usableFromInline static let constantTag: UInt64 = 0xFFFC
    @usableFromInline static let floatTag: UInt64 = 0xFFFD

    @usableFromInline static let null: UInt64 = constantTag << tagShift
    @usableFromInline static let falseBits: UInt64 = constantTag << tagShift | 2
    @usableFromInline static let trueBits: UInt64 = constantTag << tagShift | 3
    /// `.option`: its raw value in the low 8 bits (`[.new, .old]`, an
    /// array of two, is then not two boxes).
    @usableFromInline static let optionBits: UInt64 = constantTag << tagShift | 0x100

    /// An Int kept in the slot itself.
    @usableFromInline static let smallInts: Range<Int> = -(1 << 47)..<(1 << 47)

    /// The bits that keep `value`, holding one reference to its object or
    /// to a new box.
    @inlinable
    static func store(_ value: Value) -> UInt64 {
        inline(value) ?? boxed(value)
    }

    /// The bits of a new box holding `value`.
    @inlinable @inline(never)
    static func boxed(_ value: Value) -> UInt64 {
        tagged(boxTag, Unmanaged.passRetained(SlotBox(value)).toOpaque())
    }

    /// The bits that keep `value` without a box (holding one reference to
    /// its object), or nil when it needs one.
    @inlinable @inline(__always)
    static func inline(_ value: Value) -> UInt64? {
        switch value {
        case .int(let number) where smallInts.contains(number):
            return intTag << tagShift | UInt64(bitPattern: Int64(number)) & payloadMask
        case .double(let number) where number.bitPattern >> tagShift < firstTag:
            return number.bitPattern
        case .null: return null
        case .bool(let flag): return flag ? trueBits : falseBits
        case .option(let options): return optionBits | UInt64(options.rawValue)
        case .float(let number): return floatTag << tagShift | UInt64(number.bitPattern)
        case .object(let object): return tagged(objectTag, Unmanaged.passRetained(object).toOpaque())
        default: return nil
        }
    }

    @inlinable
    static func tagged(_ tag: UInt64, _ address: UnsafeMutableRawPointer) -> UInt64 {
        let bits = UInt64(UInt(bitPattern: address))
        // A heap address above 2^48 would need 5-level paging and a mmap
        // that asked for one; neither Linux nor glibc's malloc does.
        precondition(bits & ~payloadMask == 0, "heap address above 2^48")
        return tag << tagShift | bits
    }

    @inlinable
    static func address(_ bits: UInt64) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(bits & payloadMask)).unsafelyUnwrapped
    }

    @inlinable
    static func isBox(_ bits: UInt64) -> Bool { bits >> tagShift == boxTag }

    @inlinable
    static func box(_ bits: UInt64) -> SlotBox {
        // As `load` reads an object: `takeUnretainedValue()`'s copy would be atomic.
        unsafeBitCast(UInt(bits & payloadMask), to: SlotBox.self)
    }

    /// The value `bits` keep, which keep theirs. Inlined for the common
    /// kinds, a number or an object; the rest is a call.
    @inlinable @inline(__always)
    static func load(_ bits: UInt64) -> Value {
        let tag = bits >> tagShift
        if tag < firstTag { return .double(Double(bitPattern: bits)) }
        if tag == intTag { return .int(Int(Int64(bitPattern: bits << 16) >> 16)) }
        // Not `Unmanaged.takeUnretainedValue()`: its copy is an atomic
        // retain even where the module's are not (`-assume-single-threaded`).
        if tag == objectTag { return .object(unsafeBitCast(UInt(bits & payloadMask), to: KVOObject.self)) }
        return loadOther(bits)
    }

    @inlinable @inline(never)
    static func loadOther(_ bits: UInt64) -> Value {
        switch bits >> tagShift {
        case boxTag: return box(bits).value
        case floatTag: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        default:
            if bits & optionBits == optionBits {
                return .option(ObservingOptions(rawValue: UInt8(truncatingIfNeeded: bits)))
            }
            return bits == trueBits ? .bool(true) : bits == falseBits ? .bool(false) : .null
        }
    }

    /// Bits for a second holder of what `bits` keep: the object retained
    /// once more, a box's value in a box of its own (a box has one holder).
    @inlinable
    static func copy(_ bits: UInt64) -> UInt64 {
        switch bits >> tagShift {
        case objectTag:
            _ = Unmanaged<KVOObject>.fromOpaque(address(bits)).retain()
            return bits
        case boxTag: return boxed(box(bits).value)
        default: return bits
        }
    }

    /// Lets go of what `bits` keep; a collection without recursion
    /// (`Value.dispose`).
    @inlinable
    static func release(_ bits: UInt64) {
        switch bits >> tagShift {
        case objectTag: Unmanaged<KVOObject>.fromOpaque(address(bits)).release()
        case boxTag: Value.dispose(&Unmanaged<SlotBox>.fromOpaque(address(bits)).takeRetainedValue().value)
        default: break
        }
    }
}

/// A slot's value that does not fit in its 8 bytes (`PackedSlot`).
@usableFromInline
final class SlotBox {
    @usableFromInline var value: Value
    @usableFromInline init(_ value: Value) { self.value = value }
}
