extension KVORuntime {
    /// Registers the forwarding observances a root needs on related objects: the
    /// rest of its key path, and affecting key paths through to-one relationships.
    /// Iterative with a visited set, so object cycles terminate. This runs on
    /// every replacement of an object along an observed path (B4 swaps one per
    /// iteration), so it builds no arrays beyond the observances themselves.
    /// At registration (`raisingOnCollections`), an affecting key path that
    /// reaches an array or a set is forwarded to it, which raises as
    /// `-[NSArray addObserver:…]` does; when an object along the path is
    /// replaced later, such a path is skipped.
    func attachForwards(of root: Observance, raisingOnCollections: Bool = false) throws {
        // A path is identified by where it lies in storage, not by its
        // strings: copying the rest of a 24,000-component path at each step
        // was quadratic. Every path here is a slice of the root's components
        // or of an affecting key path in the class's dependency cache, both
        // kept alive meanwhile, so the finitely many slices still make the
        // walk around an object cycle terminate.
        struct Visit: Hashable {
            let object: ObjectIdentifier
            let path: UnsafeRawPointer?
            let count: Int
        }
        var visited: Set<Visit> = []
        // The runtime's work list, taken for this call and given back emptied:
        // a swap along B4's path allocates nothing. A registration made
        // meanwhile (by a getter this reads) finds none and builds its own.
        var work: [(KVOObject, ArraySlice<String>, Bool)] = []
        swap(&work, &forwardWork)
        defer {
            work.removeAllKeepingCapacity()
            swap(&work, &forwardWork)
        }
        var current: (KVOObject, ArraySlice<String>, Bool)? = (root.observed, root.components, false)

        /// `isAffecting`: `branch` is an affecting key path of a key of
        /// `object`; `inAffecting`: `branch` is the rest of one.
        func forward(
            from object: KVOObject, along branch: ArraySlice<String>, isAffecting: Bool, inAffecting: Bool
        ) throws {
            let key = branch[branch.startIndex]
            // A slice of the same storage: no copy of the rest of the path.
            let rest = branch.dropFirst()
            let reached = try? forwardedValue(of: object, key, along: branch, isAffecting || inAffecting, root)
            if raisingOnCollections, let reached, reached.isCollection, !KeyPaths.isLoneOperator(rest) {
                throw exception(
                    Exceptions.observeCollection(
                        collectionReceiver(reached, owner: CollectionOwner(object: object, key: key)),
                        keyPath: rest.joined(separator: ".")))
            }
            guard case .object(let next)? = reached, !next.isReleased else { return }
            // Following the path itself always shortens it, so only affecting
            // key paths (which start afresh) can cycle through objects.
            if isAffecting || !visited.isEmpty {
                let start = storageIdentity(rest)
                guard visited.insert(Visit(object: ObjectIdentifier(next), path: start, count: rest.count)).inserted
                else { return }
            }
            // As Apple registers them (SPEC §8.3): a key path's forwarder
            // copies the outer options with a NULL context; an affecting key
            // path's has Prior alone and, as context, the nested property it
            // serves (`Person.account.balance`), and the rest of that path
            // copies those options with a NULL context. Only dumps show them:
            // delivery reads the root's.
            let options: ObservingOptions = isAffecting || inAffecting ? .prior : root.options
            let context = isAffecting ? nestedPropertyContext(object.cls, branch) : nil
            let forward =
                try root.takeSpareForward(on: next, path: rest, options: options, context: context)
                ?? makeObservance(
                    on: next, root: root, observer: root.observer, path: rest,
                    keyPath: nil, options: options, context: context)
            append(forward, to: next)
            root.forwards.append(forward)
            work.append((next, rest, isAffecting || inAffecting))
        }

        while let (object, path, inAffecting) = current ?? work.popLast() {
            current = nil
            if path.count > 1 && !KeyPaths.isOperator(path[path.startIndex + 1]) {
                try forward(from: object, along: path, isAffecting: false, inAffecting: inAffecting)
            }
            for affecting in try object.cls.dependencies(of: path[path.startIndex]).relationshipPaths {
                try forward(from: object, along: affecting[...], isAffecting: true, inAffecting: false)
            }
        }
    }

    /// `value(of: .object(object), forKey: key)` for the first key of
    /// `branch`: on the root's own path the property comes from the root's
    /// resolved path (a class identity compared, where the lookup by name
    /// hashes the key at every swap of B4); anything else, or a key the
    /// resolved path does not answer, by name.
    @inline(__always)
    private func forwardedValue(
        of object: KVOObject, _ key: String, along branch: ArraySlice<String>, _ offPath: Bool, _ root: Observance
    ) throws -> Value {
        // A branch off the root's path is a slice of another array: its
        // indices say nothing about the root's components.
        if !offPath, let property = root.pathProperty(branch.startIndex - root.components.startIndex, on: object.cls),
            !property.kvcHidden
        {
            return try get(object, property)
        }
        return try value(of: .object(object), forKey: key)
    }

    /// The context of an affecting key path's forwarders: the nested property
    /// (`Person.account.balance`), one per class and path, so that identical
    /// registrations share it as Apple's share the property's pointer.
    private func nestedPropertyContext(_ cls: ClassInfo, _ path: ArraySlice<String>) -> Context {
        let name = cls.name + "." + path.joined(separator: ".")
        if let known = nestedPropertyContexts[name] { return known }
        let context = Context(name: name)
        nestedPropertyContexts[name] = context
        return context
    }

    /// Drops `object`'s observances without a word, the session being over
    /// (`Session.close()`): its observation info, and its key-path
    /// observances' forwards and spares, which hold their root as the root
    /// holds them. The objects those observances reached (observers, and
    /// what the forwards watched) are returned, for the caller's walk.
    public func forgetObservances(of object: KVOObject) -> [KVOObject] {
        guard let info = object.observationInfo else { return [] }
        var reached: [KVOObject] = []
        for observance in info.observances {
            reached.append(observance.observer)
            reached.append(observance.observed)
            for forward in observance.forwards { reached.append(forward.observed) }
            observance.forwards.removeAll()
            observance.dropSpareForwards()
        }
        object.observationInfo = nil
        return reached
    }

    func detachForwards(of root: Observance) {
        for forward in root.forwards { remove(forward, from: forward.observed) }
        root.forwards.removeAllKeepingCapacity()
        root.dropSpareForwards()
    }

    /// Re-registers a root's forwarding observances after an object along its
    /// path was replaced (§6.7). The detached ones are kept as spares: the
    /// object they watched often comes back (B4 swaps between two accounts),
    /// and an observance depends only on its object, its path and its root.
    func rebuildForwards(of root: Observance) {
        let before =
            explains ? (root.forwards.map { ObjectIdentifier($0.observed) }, explainedList(root.forwards)) : ([], [])
        defer { if explains { explainMovedForwards(root, before) } }
        for forward in root.forwards {
            remove(forward, from: forward.observed)
            root.keepSpareForward(forward)
        }
        root.forwards.removeAllKeepingCapacity()
        try? attachForwards(of: root)
    }

    /// Reads the relationships along a key path as registration does: an
    /// undefined key raises, and observing through an array raises, as
    /// `-[NSArray addObserver:…]` does.
    /// Only an operator that ends the path stays with the observed object
    /// (`employees.@count`); any other rest of a path after a collection,
    /// operators included (`employees.@sum.salary`), is forwarded to it.
    func checkNoCollectionAlongPath(_ object: KVOObject, _ path: ArraySlice<String>) throws {
        var current = object
        for index in path.indices.dropLast() {
            let key = path[index]
            let rest = path[(index + 1)...]
            if KeyPaths.isLoneOperator(rest) { return }
            let next = try value(of: .object(current), forKey: key)
            switch next {
            case .object(let related): current = related
            case .array, .set:
                let receiver = collectionReceiver(next, owner: CollectionOwner(object: current, key: key))
                throw exception(Exceptions.observeCollection(receiver, keyPath: rest.joined(separator: ".")))
            default: return
            }
        }
    }

    /// `<__NSArrayM dept.employees>`: collections are named after where they
    /// live; one reached otherwise shows its contents where Apple prints an address.
    func collectionReceiver(_ value: Value, owner: CollectionOwner?) -> String {
        "<\(value.foundationClassName) \(owner?.name ?? value.numberDescription ?? value.collectionDescription)>"
    }
}
