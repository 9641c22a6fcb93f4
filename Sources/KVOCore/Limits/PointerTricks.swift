#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Every place KVOCore steps outside Swift's memory safety goes through a
// helper in this file, each saying what makes it safe: per-thread slots,
// the identity of a key path slice's storage, an in-place uniqueness check,
// and the unowned-unsafe references of the observation info
// (`UncheckedReference`). The exceptions are the references held by hand in
// packed words, each type saying why where it is: `PackedSlot` (an object's
// slots, `PackedArray`'s elements) and `KVOObjectHeader`.

/// Where a slice of a key path starts in its storage: with the count, the
/// slice's identity (`KVORuntime.attachForwards`). Safe because the address
/// is only compared, never dereferenced, and only while the array holding
/// the slice is alive, so no other array can reuse it meanwhile.
@inline(__always)
func storageIdentity(_ slice: ArraySlice<String>) -> UnsafeRawPointer? {
    slice.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

/// Whether an array's storage has no other holder. An Array is one reference
/// to its storage object; it is inspected in place, without the retain a cast
/// would add (which would make it never unique).
///
/// Safe because `Array<Value>` is a single strong reference to a class
/// instance (its buffer) in every Swift ABI, so the rebound memory is a valid
/// `AnyObject`; `isKnownUniquelyReferenced` only reads its reference count.
/// An empty array's shared empty storage is never unique, so it is left alone.
@inline(__always)
func hasUniqueStorage(_ elements: inout [Value]) -> Bool {
    withUnsafeMutablePointer(to: &elements) { pointer in
        pointer.withMemoryRebound(to: AnyObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
    }
}
