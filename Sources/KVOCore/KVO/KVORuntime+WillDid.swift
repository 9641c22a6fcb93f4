extension KVORuntime {
    // MARK: Will and did (§6.5)

    /// What is changing, as `willChange…` describes it.
    public enum ChangeSpec {
        case setting
        /// Ordered to-many: insertion, removal or replacement at sorted indexes.
        case ordered(Change.Kind, [Int])
        /// Unordered to-many: the objects actually added and removed.
        case unordered(Change.Kind, added: ValueSet, removed: ValueSet)
    }

    /// `willChangeValue(forKey:)` and its to-many forms: records a pending
    /// notification for each affected observance, old values read now, and
    /// delivers prior notifications in registration order.
    public func willChange(_ object: KVOObject, key: String, _ spec: ChangeSpec = .setting) throws {
        try object.checkAlive()
        let change = takeSpareChange()
        change.start(object: object, key: key, spec: spec)
        pending.append(change)
        pendingIndex?[ObjectKey(object, key), default: []].append(change)
        if explains {
            changesStarted[ObjectKey(object, key), default: 0] += 1
            if explains(about: object) {
                explain(.changeStarts(object: object.name, key: key, kind: spec.kind, automatic: explainAutomatic))
            }
            explainAutomatic = false
        }
        guard let info = object.observationInfo else {
            if explains(about: object) { explainWillPhaseEnd(object, key, change) }
            return
        }
        // One observance costs one record, less than asking (B1; B4's forwards
        // change with every swap, so the answer would be found anew each time).
        // --explain shows each record, so it takes the general path.
        if !explains, info.count > 1, case .setting = spec, let direct = info.directSet(of: key) {
            // Every observance to notify reads `key` here: keep them as they
            // are now, and the old value once.
            change.keepDirectObservers(info.observances(triggeredBy: key))
            if direct.readsOld, let property = direct.property { change.sharedOld = try get(object, property) }
            return
        }
        changeStamp &+= 1
        let stamp = changeStamp
        let isSetting = spec.isSetting
        var hasPrior = false
        var sharedOldProperty: PropertyInfo?
        for case let entry? in info.observances(triggeredBy: key) where entry.isTriggered(by: key) {
            let root = entry.root ?? entry
            if entry.needsRebuild && !change.rebuild.contains(where: { $0 === root }) {
                change.rebuild.append(root)
            }
            guard root.isRegistered, root.lastChangeStamp != stamp else {
                if explains && root.isRegistered { explain(.alreadyRecorded(explained(root))) }
                continue
            }
            root.lastChangeStamp = stamp
            let detailed = !isSetting && entry.detailKey == key
            var oldSlot = PendingRecord.noOld
            if root.options.contains(.old) && (!detailed || spec.kind != .insertion) {
                if detailed {
                    oldSlot = change.keepOld(try detailValues(object, key, spec, old: true))
                } else if let property = root.directProperty, root.observed === object,
                    sharedOldProperty == nil || sharedOldProperty === property
                {
                    // Every observance of the first key observed directly gets
                    // the same old value: read it once and keep it on the
                    // change, not on each record. A change can also notify
                    // observers of other keys (keys it affects): they keep
                    // their own old values on their records.
                    if sharedOldProperty == nil {
                        change.sharedOld = try get(object, property)
                        sharedOldProperty = property
                    }
                    oldSlot = PendingRecord.sharedOld
                } else {
                    oldSlot = change.keepOld(try currentValue(root))
                }
            }
            change.append(PendingRecord(observance: root, detailed: detailed, oldSlot: oldSlot))
            if root.options.contains(.prior) { hasPrior = true }
            if explains {
                let old = oldSlot == PendingRecord.noOld ? nil : change.lastRecord.flatMap(change.old(of:))
                explain(
                    .recorded(
                        explained(root), route: explainedRoute(entry, key: key, on: object),
                        old: explainedValue(old)))
            }
        }
        if explains { explainWillPhaseEnd(object, key, change) }
        guard hasPrior else { return }
        for record in change.records where record.observance.options.contains(.prior) {
            let root = record.observance
            var prior = Change(kind: record.detailed ? spec.kind : .setting, isPrior: true)
            if record.detailed, case .ordered(_, let indexes) = spec { prior.indexes = indexes }
            if root.options.contains(.old) { prior.old = change.old(of: record) }
            if explains { explain(.prior(explained(root))) }
            try deliver(root, prior)
        }
    }

    /// Whether `--explain` speaks about `object`: not while its initializer
    /// runs and nobody observes it, when nothing can be observed.
    func explains(about object: KVOObject) -> Bool {
        explains && (object.observationInfo != nil || !initializing.contains(ObjectIdentifier(object)))
    }

    /// Whether a change of `key` of `object` is pending (between its will
    /// and did): an instance variable written then is that change's store.
    func isPending(_ object: KVOObject, key: String) -> Bool {
        pending.contains { !$0.isTaken && $0.object === object && $0.key == key }
    }

    /// The change an `@objc dynamic` setter of a compiled Swift program
    /// starts: KVO's generated subclass wraps the setter in will/did, so
    /// `--explain` calls it automatic, as a scenario's set.
    public func willChangeAutomatically(_ object: KVOObject, key: String) throws {
        if explains { explainAutomatic = true }
        try willChange(object, key: key)
    }

    /// `didChangeValue(forKey:)`: pops this key's most recent pending change and
    /// delivers its notifications from the most recent registration back.
    public func didChange(_ object: KVOObject, key: String) throws {
        try object.checkAlive()
        guard let change = takePending(object, key: key) else {
            if explains { explain(.silent(object: object.name, key: key, reason: .unpairedDidChange)) }
            return
        }
        if explains(about: object) { explainDidPhase(object, key, change) }
        defer {
            // Roots whose records were not reached (a handler raised) still follow the new objects.
            if !change.rebuild.isEmpty {
                for root in change.rebuild where root.isRegistered { rebuildForwards(of: root) }
            }
            recycle(change)
        }
        var newCache = NewValueCache()
        if let observers = change.directObservers {
            // From the most recent registration back, as the records would be.
            var index = observers.count
            while index > 0 {
                index -= 1
                guard let entry = observers[index], entry.isTriggered(by: key) else { continue }
                let oldSlot = entry.options.contains(.old) ? PendingRecord.sharedOld : PendingRecord.noOld
                try deliver(
                    PendingRecord(observance: entry, detailed: false, oldSlot: oldSlot), of: change, object, key,
                    &newCache)
            }
            return
        }
        var remaining = change.rest.count
        while remaining > 0 {
            remaining -= 1
            let record = change.rest[remaining]
            if !change.rebuild.isEmpty { rebuildIfReplaced(record.observance, change) }
            try deliver(record, of: change, object, key, &newCache)
        }
        if let first = change.first {
            if !change.rebuild.isEmpty { rebuildIfReplaced(first.observance, change) }
            try deliver(first, of: change, object, key, &newCache)
        }
        if explains { explainAddedMidChange(object, key, change) }
    }

    /// `willChange`, the store and `didChange` of a set of the stored
    /// property `property` of `object`, whose observances of its key all
    /// observe one property directly (`ObservationInfo.directSet(of:)`: no
    /// key path through it, no `.prior`; the key itself, or a key depending
    /// on it whose getter is pure), without `--explain`. Nothing runs
    /// between that will and did (no custom setter, no prior notification,
    /// at most a pure getter), so nothing could see the change pending: it
    /// is made without a pending entry, the old value read before the store
    /// (through the pure getter, at the point the will reads it: before the
    /// new value is converted, which may raise) and the observers told from
    /// the most recent registration back, each checked still registered, as
    /// `didChange` tells them.
    func setDirectlyObserved(
        _ object: KVOObject, _ property: PropertyInfo, slot: Int, _ value: Value, _ info: ObservationInfo,
        _ direct: ObservationInfo.DirectSet, asKVC: Bool
    ) throws {
        if direct.isDependent {
            return try setWatchedThroughDependent(object, property, slot: slot, value, info, direct, asKVC: asKVC)
        }
        try setDirectly(object, property, slot: slot, value, info, asKVC: asKVC) {
            direct.readsOld ? object[slot: slot] : nil
        }
    }

    /// `setDirectlyObserved` when its observers watch a pure key that
    /// depends on the key set: the old value is that key's getter's. Out of
    /// line, so that B1's path stays as short.
    @inline(never)
    private func setWatchedThroughDependent(
        _ object: KVOObject, _ property: PropertyInfo, slot: Int, _ value: Value, _ info: ObservationInfo,
        _ direct: ObservationInfo.DirectSet, asKVC: Bool
    ) throws {
        try setDirectly(object, property, slot: slot, value, info, asKVC: asKVC) {
            guard direct.readsOld, let observed = direct.property else { return nil }
            return try get(object, observed)
        }
    }

    /// A direct set: `readOld` where the will phase reads the old value
    /// (before the new value is converted, which may raise: then nothing
    /// was announced), the store, then the observers as they were before
    /// it, from the most recent registration back, each checked still
    /// registered by `deliverSetting`.
    @inline(__always)
    private func setDirectly(
        _ object: KVOObject, _ property: PropertyInfo, slot: Int, _ value: Value, _ info: ObservationInfo,
        asKVC: Bool, readOld: () throws -> Value?
    ) throws {
        let key = property.name
        // Kept as they are now: a handler may add or remove observances.
        let observers = info.observances(triggeredBy: key)
        var old = try readOld()
        let new = try checked(value, for: property, of: object, asKVC: asKVC)
        object[slot: slot] = new
        var cache = NewValueCache()
        var index = observers.count
        while index > 0 {
            index -= 1
            guard let entry = observers[index], entry.isTriggered(by: key) else { continue }
            try deliverSetting(entry, object, &cache) { old }
        }
        Value.dispose(&old)
    }

    /// Moves a root's forwarding observances to the objects now along its
    /// path just before its notification, as Apple's did phase does: roots are
    /// visited newest first, so the new object holds them in the opposite
    /// order from the old one (§6.7).
    private func rebuildIfReplaced(_ root: Observance, _ change: PendingChange) {
        guard let index = change.rebuild.firstIndex(where: { $0 === root }) else { return }
        change.rebuild.remove(at: index)
        if root.isRegistered { rebuildForwards(of: root) }
    }

    /// The new value of a direct key, reused across deliveries of one change
    /// until a handler runs (a handler may change it: c14's later observer sees
    /// the value after the nested change).
    private struct NewValueCache {
        var property: PropertyInfo?
        var handlerRuns = -1
        var value = Value.null
    }

    /// Delivers one recorded notification at did time, if its observance (or an
    /// identical one) is still registered; `new` is read now.
    private func deliver(
        _ record: PendingRecord, of change: PendingChange, _ object: KVOObject, _ key: String,
        _ cache: inout NewValueCache
    ) throws {
        guard record.detailed else {
            return try deliverSetting(record.observance, object, &cache) { change.old(of: record) }
        }
        let root = record.observance
        // `isRegistered` first: the common case reads no observation info.
        guard root.isRegistered || (root.observed.observationInfo?.isStillRegistered(root) ?? false) else {
            if explains { explain(.skipped(explained(root))) }
            return
        }
        if !reportsNotifications && !root.observer.cls.hasObserveValueHook {
            // With --quiet and no handler nothing reads this change
            // dictionary: count it without building it (a to-many detail
            // has no side effects to read it for).
            if root.observer.isReleased { try deliver(root, Change(kind: .setting)) }
            notificationCount += 1
            return
        }
        var notification = Change(kind: change.spec.kind)
        if case .ordered(_, let indexes) = change.spec { notification.indexes = indexes }
        if root.options.contains(.new) && notification.kind != .removal {
            notification.new = try detailValues(object, key, change.spec, old: false)
        }
        if root.options.contains(.old) && notification.kind != .insertion {
            notification.old = change.old(of: record) ?? .null
        }
        if explains {
            explain(.delivering(explained(root), new: explainedValue(notification.new), identical: !root.isRegistered))
        }
        try deliver(root, notification)
    }

    /// Delivers a setting notification to `root` at did time, if it (or an
    /// identical observance) is still registered: `new` is read now, `old()`
    /// (the value read at will time) only if `root` asks for it. Inlined
    /// into both callers, so that `old` costs nothing when nobody reads it
    /// (B5s's quiet deliveries).
    @inline(__always)
    private func deliverSetting(
        _ root: Observance, _ object: KVOObject, _ cache: inout NewValueCache, old: () -> Value?
    ) throws {
        // `isRegistered` first: the common case reads no observation info.
        guard root.isRegistered || (root.observed.observationInfo?.isStillRegistered(root) ?? false) else {
            if explains { explain(.skipped(explained(root))) }
            return
        }
        if !reportsNotifications && !root.observer.cls.hasObserveValueHook {
            // With --quiet and no handler nothing reads this change dictionary:
            // count it without building it. A new value that runs code to be
            // read (a getter, a key path) is still read, for what that code
            // does; a stored value has no side effects.
            if root.options.contains(.new) && !root.readsStoredValue {
                _ = try newValue(of: root, object, &cache)
            }
            if root.observer.isReleased { try deliver(root, Change(kind: .setting)) }
            notificationCount += 1
            return
        }
        var notification = Change(kind: .setting)
        if root.options.contains(.new) { notification.new = try newValue(of: root, object, &cache) }
        if root.options.contains(.old) { notification.old = old() ?? .null }
        if explains {
            explain(.delivering(explained(root), new: explainedValue(notification.new), identical: !root.isRegistered))
        }
        try deliver(root, notification)
    }

    /// The new value of a setting change for `root`: a direct key's value is
    /// read once for all its observances (`cache`), a key path's each time.
    private func newValue(of root: Observance, _ object: KVOObject, _ cache: inout NewValueCache) throws -> Value {
        guard let property = root.directProperty, root.observed === object else { return try currentValue(root) }
        if cache.property !== property || cache.handlerRuns != handlerRuns {
            cache.value = try get(object, property)
            cache.property = property
            cache.handlerRuns = handlerRuns
        }
        return cache.value
    }

    /// Drops the pending change a failed automatic set left behind, so no key
    /// stays half-changed after an exception.
    func discardPending(_ object: KVOObject, key: String) {
        if let change = takePending(object, key: key) { recycle(change) }
    }

    /// Takes the most recent pending change of `object`'s `key` out of the
    /// pending stack: the top in the common case, else through the index.
    @inline(__always)
    private func takePending(_ object: KVOObject, key: String) -> PendingChange? {
        if pendingIndex == nil, let last = pending.last, !last.isTaken, last.object === object, last.key == key {
            pending.removeLast()
            return last
        }
        return takePendingSlowly(object, key: key)
    }

    private func takePendingSlowly(_ object: KVOObject, key: String) -> PendingChange? {
        while let last = pending.last, last.isTaken {
            pending.removeLast()
            tombstones -= 1
        }
        if let last = pending.last, last.object === object, last.key == key {
            pending.removeLast()
            if pendingIndex != nil {
                let indexKey = ObjectKey(object, key)
                pendingIndex?[indexKey]?.removeLast()
                if pendingIndex?[indexKey]?.isEmpty == true { pendingIndex?[indexKey] = nil }
                if pending.isEmpty { pendingIndex = nil }
            }
            return last
        }
        guard !pending.isEmpty else { return nil }
        if pendingIndex == nil {
            var index: [ObjectKey: [PendingChange]] = [:]
            for change in pending where !change.isTaken {
                if let owner = change.object {
                    index[ObjectKey(owner, change.key), default: []].append(change)
                }
            }
            pendingIndex = index
        }
        let indexKey = ObjectKey(object, key)
        guard let change = pendingIndex?[indexKey]?.popLast() else { return nil }
        if pendingIndex?[indexKey]?.isEmpty == true { pendingIndex?[indexKey] = nil }
        // Left in `pending` as a tombstone, popped once it reaches the top.
        change.isTaken = true
        tombstones += 1
        return change
    }

    /// The changes waiting for their did phase: the top
    /// `explainedListLimit` as `acct.balance`, oldest first, and how many
    /// there are. Counted, not listed: a stack of 20,000 nested changes was
    /// printed whole at every step.
    func pendingSnapshot() -> ExplainedStack {
        var top: [String] = []
        for change in pending.reversed() where top.count < Self.explainedListLimit {
            guard !change.isTaken, let object = change.object else { continue }
            top.append("\(object.name).\(change.key)")
        }
        return ExplainedStack(top: top.reversed(), count: pending.count - tombstones)
    }

    private func recycle(_ change: PendingChange) {
        change.finish()
        // A tombstone is still in `pending`: never reused.
        guard !change.isTaken else { return }
        if spareChange == nil {
            spareChange = change
        } else if spareChanges.count < 64 {
            spareChanges.append(change)
        }
    }

    /// A finished change to start, else a new one.
    @inline(__always)
    private func takeSpareChange() -> PendingChange {
        if let change = spareChange {
            spareChange = nil
            return change
        }
        return spareChanges.popLast() ?? PendingChange()
    }

    /// The affected elements of a to-many change: at the indexes for arrays, the
    /// added or removed objects for sets.
    private func detailValues(_ object: KVOObject, _ key: String, _ spec: ChangeSpec, old: Bool) throws -> Value {
        switch spec {
        case .setting:
            return try value(of: .object(object), forKey: key)
        case .ordered(_, let indexes):
            guard case .array(let elements) = try value(of: .object(object), forKey: key) else { return .array([]) }
            // `-objectsAtIndexes:` raises for an index the array does not have.
            if let bad = indexes.first(where: { !elements.indices.contains($0) }) {
                let bounds = elements.isEmpty ? "for empty array" : "[0 .. \(elements.count - 1)]"
                let shown = bad < 0 ? String(UInt(bitPattern: bad)) : String(bad)
                throw exception(
                    (
                        Exceptions.range,
                        "*** -[NSArray objectsAtIndexes:]: index \(shown) in index set beyond bounds \(bounds)"
                    ))
            }
            return .array(indexes.map { elements[$0] })
        case .unordered(_, let added, let removed):
            return .set(old ? removed : added)
        }
    }
}

extension KVORuntime.ChangeSpec {
    var isSetting: Bool {
        if case .setting = self { return true }
        return false
    }

    var kind: Change.Kind {
        switch self {
        case .setting: return .setting
        case .ordered(let kind, _), .unordered(let kind, _, _): return kind
        }
    }
}
