import KVOCore

extension Session {
    /// Lets go of every observance still registered, so that the run's
    /// objects are freed with the session. An observance holds the object it
    /// observes, and that object holds its observation info: an object
    /// observed at the end of a run is otherwise never freed. The command
    /// line never needs this (the process ends next); a host that runs many
    /// scenarios does (`kvo-run serve`, the REPL's `:reset`).
    ///
    /// Reaches the objects the top-level variables hold, through properties,
    /// collections and observances (both ends). An observed object that no
    /// variable reaches any more is not found, and stays with its cycle.
    /// Nothing is reported: the session is over. The statement hook goes
    /// too: a host's hook usually holds the session (`graph --at`'s snapshot).
    public func close() {
        beforeStatement = nil
        machine.dropObservances()
    }
}

extension Machine {
    /// `Session.close()`'s walk: iterative (a 10-million-deep array must not
    /// overflow the stack), each object once.
    func dropObservances() {
        var pending = globals
        var seen: Set<ObjectIdentifier> = []
        while let value = pending.popLast() {
            switch value {
            case .object(let object), .arrayProxy(let object, _), .setProxy(let object, _),
                .observationInfo(let object):
                guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
                for slot in 0..<object.slotCount { pending.append(object[slot: slot]) }
                for reached in kvo.forgetObservances(of: object) { pending.append(.object(reached)) }
            case .array(let values):
                pending.append(contentsOf: values)
            case .set(let set):
                pending.append(contentsOf: set.elements)
            case .change(let change):
                if let new = change.new { pending.append(new) }
                if let old = change.old { pending.append(old) }
            default:
                continue
            }
        }
    }
}
