// Every place KVOFoundation steps outside Swift's memory safety goes through
// a helper in this file, each saying what makes it safe: the host table's
// unretained references and address hashing, and casts whose types are
// already known equal.

/// An engine object's address as a host-table key (`_HostTable`).
///
/// Safe because the address is only hashed and compared, never followed:
/// an entry leaves the table in its NSObject's `deinit` (`_Host`), before
/// the engine object can be freed and its address reused.
struct _AddressKey: Hashable {
    let id: ObjectIdentifier

    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// What Dictionary asks for (the hash of `hash(into:)` by default):
    /// Fibonacci hashing of the address, whose low 4 bits are always zero,
    /// folded so that the low bits the table indexes by depend on all of it.
    func _rawHashValue(seed: Int) -> Int {
        let mixed = (UInt(bitPattern: id) >> 4 ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
        return Int(bitPattern: mixed ^ mixed >> 29)
    }
}

/// One entry of the host table: the one unretained reference of the runtime.
/// Not `weak`: a weak reference gives its object a side table for life, and
/// every retain and release of such an object takes the runtime's slow path
/// (about 1,800 of a compiled B1 set's 6,100 instructions, with the token's
/// reference to its object). Safe because NSObject's `deinit` removes the
/// entry before anything else (while it runs, a lookup finds nothing, as a
/// weak reference to an object being deinitialised would).
struct _Host {
    unowned(unsafe) let object: NSObject
}

/// `value` as `T`, when the caller has established that `V` is `T` (the
/// bridge's converters compare `V.self == Int.self` first): a reinterpret of
/// a value as its own type, without the dynamic cast `as! T` performs on
/// every call in unspecialised generic code.
@inline(__always)
func _sameTypeCast<V, T>(_ value: V, to type: T.Type) -> T {
    unsafeBitCast(value, to: type)
}

/// `object` as `Self`-typed `T`, when the caller has established by identity
/// that it is the receiver whose static type is `T` (the handler of
/// `observe(_:options:changeHandler:)` compares `ObjectIdentifier`s first):
/// a reference keeps its representation, so only the static type changes.
@inline(__always)
func _knownIdentityCast<T>(_ object: NSObject, to type: T.Type) -> T {
    unsafeBitCast(object, to: type)
}
