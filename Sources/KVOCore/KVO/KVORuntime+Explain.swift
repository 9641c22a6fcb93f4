/// `--explain`: the engine's steps described for people. Everything here runs
/// only when `explains` is true; the engine's paths test that one flag first,
/// so a run without `--explain` builds none of these strings.
extension KVORuntime {
    func explain(_ step: Explanation) {
        sink.emit(.explain(step, depth: depth))
    }

    /// Observances listed in one step at most; a 24,000-component affecting
    /// path has as many forwarding observances, and listing each (with its key
    /// path) at every step took minutes and gigabytes.
    static let explainedListLimit = 16
    /// Characters of a key path shown in a step, past which it ends in `…`.
    static let explainedKeyPathLimit = 200

    /// An observance by its place in its object's observation info (`acct[1]`).
    func explained(_ observance: Observance) -> ExplainedObservance {
        let index = observance.isRemoved ? nil : observance.observed.observationInfo?.index(of: observance)
        var forwarding: String?
        if let root = observance.root { forwarding = explained(root).label }
        return ExplainedObservance(
            object: observance.observed.name, index: index, observer: observance.observer.name,
            keyPath: observance.keyPath(shownUpTo: Self.explainedKeyPathLimit), options: observance.options.names,
            context: observance.context?.name,
            forwarding: forwarding)
    }

    /// The first `explainedListLimit` of `observances`, explained.
    func explainedList(_ observances: [Observance]) -> [ExplainedObservance] {
        observances.prefix(Self.explainedListLimit).map(explained)
    }

    /// `step`, then how many observances its lists left out (`total` the
    /// longest list's length).
    func explain(_ step: Explanation, listing total: Int) {
        explain(step)
        if total > Self.explainedListLimit { explain(.notListed(count: total - Self.explainedListLimit)) }
    }

    /// A value as a change dictionary shows it.
    func explainedValue(_ value: Value?) -> String? {
        guard let value else { return nil }
        var text = ""
        value.describe(into: &text)
        return text
    }

    /// How a change of `key` on `object` reached `entry` (an observance of
    /// `object` triggered by `key`): the key itself, a chain of dependent keys
    /// (shortest, found breadth first over the class's affecting key paths),
    /// or a forwarding observance of a key path.
    func explainedRoute(_ entry: Observance, key: String, on object: KVOObject) -> ExplainedRoute {
        if entry.root != nil { return .forwarded(via: explained(entry)) }
        let observed = entry.components.first ?? key
        if observed == key { return .direct }
        // Breadth first from the observed key over "is affected by", so the
        // chain shown is a shortest one; `cameFrom` leads back to the observed key.
        var cameFrom: [String: String] = [:]
        var queue = [observed]
        var head = 0
        func chain(from first: String, _ affected: String) -> ExplainedRoute {
            var keys = [first, affected]
            var step = affected
            while let next = cameFrom[step] {
                keys.append(next)
                step = next
            }
            return .dependent(keys)
        }
        while head < queue.count {
            let current = queue[head]
            head += 1
            let affecting = (try? object.cls.keyPathsAffecting(current)) ?? []
            for path in affecting where path[0] == key {
                // `key` itself, or a key path through the relationship `key`.
                return chain(from: path.joined(separator: "."), current)
            }
            for path in affecting where path.count == 1 && path[0] != observed && cameFrom[path[0]] == nil {
                cameFrom[path[0]] = current
                queue.append(path[0])
            }
        }
        return .dependent([key, observed])
    }

    /// Why an automatic change of `property` tells nobody.
    func explainSilentSet(_ object: KVOObject, _ property: PropertyInfo) {
        let reason: Explanation.SilentReason
        if object.observationInfo == nil {
            reason = endedObservationReason(object, property.name) ?? .noObservers
        } else {
            reason = property.isManual ? .manual : .notAutomatic
        }
        explain(.silent(object: object.name, key: property.name, reason: reason))
    }

    /// A compiled Swift program's assignment to `key` of `object` that tells
    /// nobody (no observer, or the class does not notify it automatically):
    /// why, as for a scenario's set.
    public func explainSilentSet(_ object: KVOObject, key: String) {
        guard explains(about: object) else { return }
        if let property = object.cls.property(named: key) { return explainSilentSet(object, property) }
        let reason =
            object.observationInfo == nil ? endedObservationReason(object, key) ?? .noObservers : .notAutomatic
        explain(.silent(object: object.name, key: key, reason: reason))
    }

    /// A compiled Swift program's assignment to a property that is not
    /// `@objc dynamic`: its setter runs directly, past KVO.
    public func explainNotDynamic(_ object: KVOObject, key: String) {
        if explains { explain(.silent(object: object.name, key: key, reason: .notDynamic)) }
    }

    /// Nobody observes `key` of `object` because a Swift token ended: which way.
    func endedObservationReason(_ object: KVOObject, _ key: String) -> Explanation.SilentReason? {
        endedObservations[ObjectKey(object, key)].map { $0 ? .tokenReleased : .tokenInvalidated }
    }

    /// Swift's `NSKeyValueObservation` token for `keyPath` of `object` ended
    /// and its observer is gone: said now, and remembered for the changes of
    /// that key that then tell nobody.
    public func explainObservationEnded(_ object: KVOObject, keyPath: String, released: Bool) {
        guard explains else { return }
        endedObservations[ObjectKey(object, keyPath)] = released
        explain(.observationEnded(object: object.name, keyPath: keyPath, released: released))
    }

    /// `removeObserver`: the registration it takes out, and how many matched.
    func explainRemoval(_ observance: Observance, _ context: ContextMatch) {
        var anyContext = false
        if case .any = context { anyContext = true }
        let candidates =
            observance.observed.observationInfo?.registrationCount(
                of: observance.observer, keyPath: observance.keyPath, context: context) ?? 0
        explain(
            .removed(
                explained(observance), candidates: candidates, anyContext: anyContext,
                forwards: explainedList(observance.forwards)),
            listing: observance.forwards.count)
    }

    /// A root's forwarding observances after a rebuild, when they moved to
    /// other objects (`before`: the objects they watched, and those listed).
    func explainMovedForwards(
        _ root: Observance, _ before: (objects: [ObjectIdentifier], shown: [ExplainedObservance])
    ) {
        guard before.objects != root.forwards.map({ ObjectIdentifier($0.observed) }) else { return }
        explain(
            .forwardsMoved(explained(root), from: before.shown, to: explainedList(root.forwards)),
            listing: max(before.objects.count, root.forwards.count))
    }

    /// The will phase is over: nobody affected, and the pending stack.
    func explainWillPhaseEnd(_ object: KVOObject, _ key: String, _ change: PendingChange) {
        if change.first == nil {
            let reason: Explanation.SilentReason =
                endedObservationReason(object, key)
                ?? (object.observationInfo == nil ? .noObservers : .noObserversOfKey)
            explain(.silent(object: object.name, key: key, reason: reason))
        }
        explain(.pendingStack(pendingSnapshot()))
    }

    /// The first `explainedListLimit` of a change's records in the order the
    /// did phase tries them (most recent registration first), explained.
    func explainedDidOrder(_ change: PendingChange) -> [ExplainedObservance] {
        var order: [ExplainedObservance] = []
        var remaining = change.rest.count
        while remaining > 0, order.count < Self.explainedListLimit {
            remaining -= 1
            order.append(explained(change.rest[remaining].observance))
        }
        if let first = change.first, order.count < Self.explainedListLimit { order.append(explained(first.observance)) }
        return order
    }

    /// The did phase begins: the order it tries its records in.
    func explainDidPhase(_ object: KVOObject, _ key: String, _ change: PendingChange) {
        let count = change.recordCount
        explain(
            .didStarts(
                object: object.name, key: key, order: explainedDidOrder(change), count: count,
                stack: pendingSnapshot()),
            listing: count)
    }

    /// The did phase is over: the observances registered since the will
    /// phase (between the halves of a manual change, or by a handler), which
    /// it did not tell.
    func explainAddedMidChange(_ object: KVOObject, _ key: String, _ change: PendingChange) {
        guard let info = object.observationInfo else { return }
        // Hashed: with 60,000 observances, a linear search of the records
        // for each made one explained change take minutes.
        var recorded: Set<ObjectIdentifier> = []
        var recordedIdentities: Set<RegistrationIdentity> = []
        for record in change.records {
            recorded.insert(ObjectIdentifier(record.observance))
            if record.observance.root == nil { recordedIdentities.insert(RegistrationIdentity(record.observance)) }
        }
        var seen: Set<ObjectIdentifier> = []
        for case let entry? in info.observances(triggeredBy: key) where entry.isTriggered(by: key) {
            let root = entry.root ?? entry
            guard root.isRegistered, seen.insert(ObjectIdentifier(root)).inserted else { continue }
            // `isIdentical(to:)` holds only between root observances.
            let isRecorded =
                recorded.contains(ObjectIdentifier(root))
                || (root.root == nil && recordedIdentities.contains(RegistrationIdentity(root)))
            if !isRecorded { explain(.addedMidChange(explained(root))) }
        }
    }

    /// What makes two root observances identical (`Observance.isIdentical(to:)`), hashable.
    struct RegistrationIdentity: Hashable {
        let observer: ObjectIdentifier
        let keyPath: String
        let options: ObservingOptions
        let context: ObjectIdentifier?

        init(_ observance: Observance) {
            observer = ObjectIdentifier(observance.observer)
            keyPath = observance.keyPath
            options = observance.options
            context = observance.context.map(ObjectIdentifier.init)
        }
    }

    /// The class `object_getClass` would show now, for explaining the
    /// isa-swizzle; nil when the language has not said how to work it out.
    func explainedClassName(_ object: KVOObject) -> String? {
        guard let runtimeClassName else { return nil }
        return try? runtimeClassName(object)
    }

    /// Explains a change of the class `object_getClass` shows since `before`
    /// (a registration or removal swizzled the object or gave its class back).
    func explainClassChange(_ object: KVOObject, from before: String?) {
        guard let before, let after = explainedClassName(object), after != before else { return }
        explainClassChange(object, from: before, to: after, swizzled: after.contains("NSKVONotifying_"))
    }

    /// The isa-swizzle, for the code that swaps an object's class: `from` is
    /// the class the object had, `to` the one it has now (`NSKVONotifying_…`
    /// when `swizzled`, the original class when undone). Call it only when
    /// `explains` is true.
    public func explainClassChange(_ object: KVOObject, from: String, to: String, swizzled: Bool) {
        explain(.classChanged(object: object.name, from: from, to: to, swizzled: swizzled))
    }
}
