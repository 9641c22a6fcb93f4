/// The checked lane's audit of the engine (Package.swift's KVO_CHECKED):
/// the interpreter calls `_checkInvariants()` after every statement. In other
/// builds every function here is empty and inlined away.
extension KVORuntime {
    /// Whether this build checks invariants: the checked lane (KVO_CHECKED).
    #if KVO_CHECKED
    public static let checksInvariants = true
    #else
    public static let checksInvariants = false
    #endif

    #if KVO_CHECKED
    /// The pending-change stack and the observation infos changed since the
    /// last check. A broken invariant stops the process (`precondition`):
    /// the engine's state can no longer be trusted.
    public func _checkInvariants() {
        checkPendingStack()
        for info in changedInfos.values { info._checkInvariants() }
        changedInfos = [:]
        invariantChecks += 1
    }

    /// Remembers an observation info a registration or removal changed, for
    /// the next check: checking every object's after each statement would
    /// cost the number of observances alive.
    @inline(__always)
    func noteChanged(_ info: ObservationInfo) {
        changedInfos[ObjectIdentifier(info)] = info
    }

    /// The tombstone count is the taken changes', every live change is
    /// started (a tombstone was finished by its did phase), none is also
    /// waiting for reuse, and the index (when built) holds exactly the live
    /// changes under their object and key.
    private func checkPendingStack() {
        var taken = 0
        var spare = Set(spareChanges.map(ObjectIdentifier.init))
        if let spareChange {
            precondition(spare.insert(ObjectIdentifier(spareChange)).inserted, "a change is kept for reuse twice")
        }
        let pendingChanges = Set(pending.map(ObjectIdentifier.init))
        for change in pending {
            if change.isTaken { taken += 1 }
            precondition(change.isTaken || change.object != nil, "a pending change was never started")
            precondition(!spare.contains(ObjectIdentifier(change)), "a pending change is also kept for reuse")
        }
        precondition(taken == tombstones, "the tombstone count disagrees with the pending stack")
        if let pendingIndex {
            var indexed = 0
            for (key, changes) in pendingIndex {
                precondition(!changes.isEmpty, "an empty list is left in the pending index")
                for change in changes {
                    precondition(!change.isTaken, "a taken change is still in the pending index")
                    precondition(
                        change.object.map { ObjectKey($0, change.key) } == key,
                        "a pending change is indexed under another key")
                    precondition(
                        pendingChanges.contains(ObjectIdentifier(change)),
                        "the pending index holds a change not pending")
                }
                indexed += changes.count
            }
            precondition(indexed == pending.count - tombstones, "the pending index does not hold every live change")
        }
    }
    #else
    @inline(__always) public func _checkInvariants() {}
    @inline(__always) func noteChanged(_ info: ObservationInfo) {}
    #endif
}
