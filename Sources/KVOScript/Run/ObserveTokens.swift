import KVOCore

/// The live `observe` tokens of a scenario (SPEC §11.2). Nothing here is
/// touched by a scenario that uses none.
final class ObserveTokens {
    /// One `observe` registration: what its token unregisters, and the handler.
    final class Observation {
        let token: KVOObject
        weak var observed: KVOObject?
        let keyPath: String
        let handler: FunctionBox
        /// `self` where the handler was written inside a method.
        let capturedSelf: KVOObject?
        var isValid = true

        init(token: KVOObject, observed: KVOObject, keyPath: String, handler: FunctionBox, capturedSelf: KVOObject?) {
            self.token = token
            self.observed = observed
            self.keyPath = keyPath
            self.handler = handler
            self.capturedSelf = capturedSelf
        }
    }

    var observations: [ObjectIdentifier: Observation] = [:]
    /// The class of `observe` tokens, made on first use.
    private var tokenClassInfo: ClassInfo?

    func tokenClass(_ machine: Machine) -> ClassInfo {
        if let tokenClassInfo { return tokenClassInfo }
        let info = ClassInfo(name: "NSKeyValueObservation", superclass: nil)
        let ref = MachineRef(machine)
        info.ownHooks.observeValue = { token, _, object, change, _ in
            try ref { try $0.runObservation(token, object, change) }
        }
        tokenClassInfo = info
        return info
    }

    func observation(of token: KVOObject) -> Observation? {
        guard token.cls === tokenClassInfo else { return nil }
        return observations[ObjectIdentifier(token)]
    }
}

extension Machine {
    /// The handler of an `observe` token, run where `observeValue` would be.
    func runObservation(_ token: KVOObject, _ object: KVOObject, _ change: Change) throws {
        guard let observation = tokens.observations[ObjectIdentifier(token)], observation.isValid else { return }
        _ = try invoke(
            observation.handler, selfObject: observation.capturedSelf,
            arguments: [.object(object), .change(change)])
    }

    /// `token.invalidate()`, or the token's release (`released`): the hidden
    /// observer goes away silently; a second time does nothing.
    func invalidate(_ value: Value, released: Bool) {
        guard case .object(let token) = value, let observation = tokens.observation(of: token),
            observation.isValid
        else { return }
        observation.isValid = false
        if let observed = observation.observed {
            kvo.endObservation(of: token, on: observed, keyPath: observation.keyPath, released: released)
        }
        tokens.observations[ObjectIdentifier(token)] = nil
    }

    /// `release(holder)`: the holder's deinit releases its stored properties,
    /// and a token held in one (directly, or as an element of an array or a
    /// set there) ends with it, silently (SPEC §11.2). Without this the
    /// token outlived its holder and its next change ran a handler whose
    /// `self` was the deallocated holder.
    func endTokens(heldBy holder: KVOObject) {
        guard !tokens.observations.isEmpty else { return }
        for slot in holder.slots {
            switch slot {
            case .object: invalidate(slot, released: true)
            case .array(let elements): for element in elements { invalidate(element, released: true) }
            case .set(let set): for element in set.elements { invalidate(element, released: true) }
            default: continue
            }
        }
    }

    /// `object_getClass(o)` (KVOCore's `runtimeClassName`).
    func runtimeClassName(_ object: KVOObject) throws -> String {
        try object.runtimeClassName()
    }
}
