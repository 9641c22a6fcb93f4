import KVOCore

/// The interpreter's state for Swift source: the live `observe` tokens, the
/// non-dynamic assignments already warned about, and where warnings go.
/// Nothing here is touched by a scenario that uses none of it.
final class SwiftState {
    /// One `observe` registration: what its token unregisters, and the handler.
    final class Observation {
        let token: KVOObject
        weak var observed: KVOObject?
        let keyPath: String
        let handler: FunctionBox
        /// `self` where the handler was written inside a method.
        let capturedSelf: KVOObject?
        let valueType: String
        var isValid = true
        /// Stored into a property or a global: its scope's end does not end it.
        var escaped = false

        init(
            token: KVOObject, observed: KVOObject, keyPath: String, handler: FunctionBox, capturedSelf: KVOObject?,
            valueType: String
        ) {
            self.token = token
            self.observed = observed
            self.keyPath = keyPath
            self.handler = handler
            self.capturedSelf = capturedSelf
            self.valueType = valueType
        }
    }

    var observations: [ObjectIdentifier: Observation] = [:]
    /// Classes and keys whose silent assignment was already reported.
    var warnedAssignments: Set<String> = []
    /// Reports a runtime warning at a location; set by the session for each run.
    var warn: ((String, SourceLocation) -> Void)?
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
        guard let observation = swift.observations[ObjectIdentifier(token)], observation.isValid else { return }
        var swiftChange = change
        swiftChange.observedValueType = observation.valueType
        _ = try invoke(
            observation.handler, selfObject: observation.capturedSelf,
            arguments: [.object(object), .change(swiftChange)])
    }

    /// `token.invalidate()`, or the token's release (`released`): the hidden
    /// observer goes away silently; a second time does nothing.
    func invalidate(_ value: Value, released: Bool) {
        guard case .object(let token) = value, let observation = swift.observation(of: token),
            observation.isValid
        else { return }
        observation.isValid = false
        if let observed = observation.observed, !observed.isReleased {
            kvo.explainObservationEnded(observed, keyPath: observation.keyPath, released: released)
            try? kvo.removeObserver(
                token, from: .object(observed), keyPath: observation.keyPath,
                context: .exactly(nil))
        }
        swift.observations[ObjectIdentifier(token)] = nil
    }

    /// `release(holder)`: the holder's deinit releases its stored properties,
    /// and a token held in one (directly, or as an element of an array or a
    /// set there) ends with it, silently (SPEC §11.0). Without this the
    /// token outlived its holder and its next change ran a handler whose
    /// `self` was the deallocated holder.
    func endTokens(heldBy holder: KVOObject) {
        guard !swift.observations.isEmpty else { return }
        for slot in holder.slots {
            switch slot {
            case .object: invalidate(slot, released: true)
            case .array(let elements): for element in elements { invalidate(element, released: true) }
            case .set(let set): for element in set.elements { invalidate(element, released: true) }
            default: continue
            }
        }
    }

    /// A Swift assignment to a property that is not `@objc dynamic`: the
    /// setter runs directly and KVO never hears of it. Said once per class and
    /// key, the first time it happens while the key is observed.
    func assignBypassingKVO(
        _ object: KVOObject, _ property: PropertyInfo, _ value: Value,
        at location: SourceLocation
    ) throws {
        try kvo.checkAlive(object)
        if object.observationInfo != nil,
            (object.observationInfo?.observances ?? []).contains(where: { $0.isKeyPath(property.name) }),
            swift.warnedAssignments.insert(object.cls.name + "." + property.name).inserted
        {
            let key = property.name
            swift.warn?(
                "'\(key)' is not dynamic: this assignment bypasses KVO; declare it '@objc dynamic var \(key)'",
                location)
        }
        try kvo.setBypassingKVO(object, property, value)
    }

    /// `object_getClass(o)`: KVO's generated subclass while a key the class
    /// notifies automatically is observed, the class otherwise.
    func runtimeClassName(_ object: KVOObject) throws -> String {
        let name = object.cls.runtimeName
        // Each observance is classified once, by its first key (not its
        // snapshot, which joins the whole key path), and the observation
        // info keeps count: asking costs no walk of every observance.
        let swizzled =
            try object.observationInfo?.hasAutomaticObservance { observance in
                let key = observance.firstKey
                // A property Objective-C cannot see has no setter for the subclass to override.
                guard let property = object.cls.property(named: key), !property.kvcHidden else { return false }
                return try object.cls.automaticallyNotifies(forKey: key)
            } ?? false
        return swizzled ? (name.contains(".") ? ".." : "") + "NSKVONotifying_" + name : name
    }
}

extension Machine {
    /// A token stored in a property or a global lives as long as that holds
    /// it: the token it replaces (if no longer held there) ends.
    func tokenStored(_ value: Value, replacing old: Value) throws {
        if case .object(let token) = value, let observation = swift.observation(of: token) {
            observation.escaped = true
        }
        guard case .object(let previous) = old, swift.observation(of: previous) != nil else { return }
        if case .object(let current) = value, current === previous { return }
        invalidate(old, released: true)
    }
}

extension Compiler {
    /// A function's locals end with it: a token held only by one ends too
    /// (unless the function returns it).
    func endingTokensInScope(_ body: @escaping Exec, frameSize: Int) -> Exec {
        { machine in
            let result = try body(machine)
            let base = machine.base
            for slot in base..<min(base + frameSize, machine.stack.count) {
                guard case .object(let token) = machine.stack[slot],
                    let observation = machine.swift.observation(of: token), !observation.escaped
                else { continue }
                if case .object(let returned)? = result, returned === token { continue }
                machine.invalidate(machine.stack[slot], released: true)
            }
            return result
        }
    }
}
