// One of KVOCore's fenced pointer tricks (PointerTricks.swift says which).

/// A reference that neither retains nor checks: reading it after the object
/// is freed is undefined behaviour. The observation info's cached direct-set
/// answer holds its property this way (a retain and release per set cost 4%
/// of B1).
///
/// Safe only where something else keeps the object alive for as long as the
/// reference is read: each use says what. The checked lane compiles it as a
/// checked `unowned` reference, which traps if it is read after the object
/// is freed, so the tests run with the claim checked.
struct UncheckedReference<Object: AnyObject> {
    #if KVO_CHECKED
    unowned let object: Object
    #else
    unowned(unsafe) let object: Object
    #endif

    @inline(__always)
    init(_ object: Object) { self.object = object }
}
