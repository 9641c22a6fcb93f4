extension KVORuntime {
    // MARK: Registration (§6.1)

    /// `addObserver(_:forKeyPath:options:context:)`.
    /// `owner` names a collection receiver in the exception it raises.
    public func addObserver(
        _ observer: KVOObject, to target: Value, keyPath: String,
        options: ObservingOptions, context: Context?, owner: CollectionOwner? = nil
    ) throws {
        let object: KVOObject
        switch target {
        case .object(let value): object = value
        case .null: return  // messaging nil does nothing
        default:
            throw exception(Exceptions.observeCollection(collectionReceiver(target, owner: owner), keyPath: keyPath))
        }
        try object.checkAlive()
        try observer.checkAlive()
        let path = split(keyPath)
        try checkNoCollectionAlongPath(object, path)

        let root = try makeObservance(
            on: object, root: nil, observer: observer, path: path,
            keyPath: keyPath, options: options, context: context)
        let classBefore = explains ? explainedClassName(object) : nil
        if options.contains(.initial) {
            // Delivered before the registration takes effect.
            var change = Change(kind: .setting)
            if options.contains(.new) { change.new = try value(of: .object(object), forKeyPath: keyPath) }
            if explains { explain(.initial(explained(root))) }
            try deliver(root, change)
        }
        append(root, to: object)
        do {
            try attachForwards(of: root, raisingOnCollections: true)
        } catch {
            // An affecting key path through a to-many relationship: the
            // collection raised, and nothing stays registered (as for a key
            // path through one, checked above).
            unregister(root, from: object)
            throw error
        }
        if explains {
            endedObservations[ObjectKey(object, keyPath)] = nil
            explain(.registered(explained(root), forwards: explainedList(root.forwards)), listing: root.forwards.count)
            explainClassChange(object, from: classBefore)
        }
    }

    /// Which registrations `removeObserver` may match.
    public enum ContextMatch {
        case any
        case exactly(Context?)
    }

    /// `removeObserver(_:forKeyPath:context:)`: removes the most recent match.
    public func removeObserver(
        _ observer: KVOObject, from target: Value, keyPath: String, context: ContextMatch,
        owner: CollectionOwner? = nil
    ) throws {
        guard case .object(let object) = target else {
            if case .null = target { return }
            var withContext = true
            if case .any = context { withContext = false }
            throw exception(
                Exceptions.removeObserverFromCollection(
                    collectionReceiver(target, owner: owner),
                    keyPath: keyPath, withContext: withContext))
        }
        try object.checkAlive()
        let match = object.observationInfo?.lastRegistration(of: observer, keyPath: keyPath, context: context)
        guard let observance = match else {
            throw exception(Exceptions.cannotRemove(observer: observer, keyPath: keyPath, from: object))
        }
        guard explains else { return unregister(observance, from: object) }
        explainRemoval(observance, context)
        let classBefore = explainedClassName(object)
        unregister(observance, from: object)
        explainClassChange(object, from: classBefore)
    }

    /// The end of an `observe` token, by `invalidate()` or by its release
    /// (`released`, which `--explain` tells apart): the hidden observer goes
    /// away silently, with nothing to remove once the observed object itself
    /// was released. The interpreter's tokens and a compiled program's
    /// `NSKeyValueObservation` both end here.
    public func endObservation(of token: KVOObject, on observed: KVOObject, keyPath: String, released: Bool) {
        guard !observed.isReleased else { return }
        explainObservationEnded(observed, keyPath: keyPath, released: released)
        try? removeObserver(token, from: .object(observed), keyPath: keyPath, context: .exactly(nil))
    }

    /// Takes a root observance out of its object's observation info, with its forwards.
    private func unregister(_ observance: Observance, from object: KVOObject) {
        if let info = object.observationInfo {
            info.remove(observance)
            noteChanged(info)
            if info.count == 0 { object.observationInfo = nil }
        }
        observance.isRegistered = false
        detachForwards(of: observance)
    }

    func append(_ observance: Observance, to object: KVOObject) {
        if let info = object.observationInfo {
            info.append(observance)
            noteChanged(info)
        } else {
            let info = spareInfos.popLast() ?? ObservationInfo()
            info.append(observance)
            object.observationInfo = info
            noteChanged(info)
        }
    }

    /// Removes a forwarding observance. An object that loses its last one keeps
    /// no observation info, and the emptied info is kept for the next object that
    /// gains one: re-registering a key path's forwards on every swap of an object
    /// along it (B4) then allocates only the observance.
    func remove(_ observance: Observance, from object: KVOObject) {
        guard let info = object.observationInfo else { return }
        info.remove(observance)
        noteChanged(info)
        if info.count == 0 {
            object.observationInfo = nil
            if spareInfos.count < 64, info.reset() { spareInfos.append(info) }
        }
    }

    /// `keyPath` split at dots. Registrations repeat one key path (100,000 of
    /// them in B3): the last split is kept, and its storage shared.
    private func split(_ keyPath: String) -> ArraySlice<String> {
        if let last = lastSplit, last.keyPath == keyPath { return last.components[...] }
        let components = KeyPaths.components(keyPath)
        lastSplit = (keyPath, components)
        return components[...]
    }

    /// Builds an observance watching `path[0]` of `object` and every key affecting it.
    func makeObservance(
        on object: KVOObject, root: Observance?, observer: KVOObject, path: ArraySlice<String>,
        keyPath: String?, options: ObservingOptions, context: Context?
    ) throws -> Observance {
        let key = path[path.startIndex]
        let dependencies = try object.cls.dependencies(of: key)
        let continues = path.count > 1 && !KeyPaths.isOperator(path[path.startIndex + 1])
        let observance = Observance(
            observed: object, root: root, observer: observer, keyPath: keyPath, components: path, options: options,
            context: context, triggerKeys: dependencies.triggers ?? [], detailKey: path.count == 1 ? key : nil,
            needsRebuild: continues || dependencies.throughRelationship, largeClosure: dependencies.triggers == nil)
        if root == nil && path.count == 1 { observance.directProperty = object.cls.kvcProperty(named: key) }
        return observance
    }

    /// The current value of a root observance's key path.
    func currentValue(_ root: Observance) throws -> Value {
        if let property = root.directProperty { return try get(root.observed, property) }
        // `account.balance`: properties of objects, read as `value(of:forKey:)`
        // reads them, without a Value for each object on the way. Anything
        // else (an operator, a missing key, a collection, a released object)
        // goes on through `value(of:forPath:)` from where it is met.
        let path = root.components
        var object = root.observed
        var step = 0
        while step < path.count, !object.isReleased, let property = root.pathProperty(step, on: object.cls) {
            let reached = try get(object, property)
            step += 1
            if step == path.count { return reached }
            guard case .object(let next) = reached else {
                return try value(of: reached, forPath: path[(path.startIndex + step)...])
            }
            object = next
        }
        return try value(of: .object(object), forPath: path[(path.startIndex + step)...])
    }
}
