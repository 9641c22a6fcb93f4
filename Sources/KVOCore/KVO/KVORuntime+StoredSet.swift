extension KVORuntime {
    // MARK: A compiled program's stored set

    /// Whether a set of `key` of `object`, whose property `property` reads
    /// its own storage, can skip its pending change and be delivered whole
    /// by `deliverStoredSet` at did time, because nothing can happen
    /// between its will and did but the store (KVOFoundation's
    /// `_kvoWill(_:_:_:)` for a stored property without observers of the
    /// program's): when every observance the set triggers is a root
    /// observing exactly `key` through `property`, without `.prior` (the
    /// direct set of `willChange`, whose did phase reads nothing the will
    /// phase recorded but the observers and the old value), and nothing is
    /// explained. Nil when not; else whether one of them wants the old value.
    public func storedSetReadsOld(_ object: KVOObject, key: String, property: PropertyInfo) -> Bool? {
        guard !explains, let info = object.observationInfo, let direct = info.directSet(of: key) else { return nil }
        if let read = direct.property, read !== property { return nil }
        return direct.readsOld
    }

    /// `willChange` and `didChange` of a set that `storedSetReadsOld`
    /// accepted, at did time: the notifications of the direct set's did
    /// phase, from the most recent registration back. `old`: the value at
    /// will time, when an observer wants it; `new`: the value stored, what
    /// the property's getter reads until a setter runs (a handler's), when
    /// `reading` (the storage the getter reads) reads it again, as the did
    /// phase reads it through the getter. The storage changes only through
    /// the property's setter, which counts itself in `settersStarted`
    /// first: 10,000 observers whose handlers set nothing (compiled B2)
    /// read it once, not after each handler.
    public func deliverStoredSet(
        _ object: KVOObject, key: String, old: Value, new stored: Value, reading value: () -> Value
    ) throws {
        try object.checkAlive()
        guard let info = object.observationInfo else { return }
        let observers = info.observances(triggeredBy: key)
        var new = stored
        var newRead = settersStarted
        var index = observers.count
        while index > 0 {
            index -= 1
            guard let root = observers[index], root.isTriggered(by: key) else { continue }
            guard root.isRegistered || (root.observed.observationInfo?.isStillRegistered(root) ?? false) else {
                continue
            }
            let wantsNew = root.options.contains(.new)
            if wantsNew && newRead != settersStarted {
                new = value()
                newRead = settersStarted
            }
            if !reportsNotifications && !root.observer.cls.hasObserveValueHook {
                // As the did phase's quiet delivery: reading the storage
                // runs no code, so the read above is all it does.
                if root.observer.isReleased { try deliver(root, Change(kind: .setting)) }
                notificationCount += 1
                continue
            }
            var notification = Change(kind: .setting)
            if wantsNew { notification.new = new }
            if root.options.contains(.old) { notification.old = old }
            try deliver(root, notification)
        }
    }
}
