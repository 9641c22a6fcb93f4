import KVOCore

/// The checked lane's audit of the machine (Package.swift's KVO_CHECKED),
/// run by `Session` after every top-level statement; empty in other builds.
extension Machine {
    #if KVO_CHECKED
    /// Between top-level statements no call is running: no frame above the
    /// top level (depth, base), no `self`, no collection owner of a built-in
    /// call; then the engine's own audit (`KVORuntime._checkInvariants()`).
    func _checkInvariants() {
        precondition(callDepth == 0, "a call is still running between statements")
        precondition(base == 0, "the frame base was not restored between statements")
        precondition(base <= stack.count, "the frame base is past the stack")
        precondition(selfObject == nil, "'self' is still set between statements")
        precondition(receiverOwner == nil, "a collection owner is still set between statements")
        kvo._checkInvariants()
    }
    #else
    @inline(__always) func _checkInvariants() {}
    #endif
}
