/// The KVO engine: registration, the will/did pending model of docs/language.md#order,
/// dependent keys, key-path forwarding and delivery. KVC lives in `KVC.swift`,
/// collection proxies in `CollectionMutations.swift`.
///
/// Everything it produces goes to `sink`; it never prints.
public final class KVORuntime {
    public let sink: EventSink
    /// Handlers running now: the `depth` of events.
    public private(set) var depth = 0
    /// Deepest handler nesting allowed (`--max-depth`).
    public var maxDepth = 1000
    /// The native stack of the thread this runtime runs on (the one it is
    /// created on).
    public var stackGuard = StackGuard.currentThread
    public private(set) var notificationCount = 0
    public private(set) var objectCount = 0
    /// False with `--quiet`: notifications are counted, not sent to the sink.
    public var reportsNotifications = true
    /// `--explain`: report each step of the machinery as `.explain` events.
    public var explains = false
    /// `--explain`: whether the release of an object nobody observes is
    /// said too. A scenario releases objects only with `release(x)`, which
    /// is then explained; a compiled Swift program frees one at every
    /// deinit, where only the release of an observed object says anything.
    public var explainsUnobservedReleases = true
    /// What `object_getClass` shows for an object (the language decides, by
    /// its kind of class and observed keys): read only to explain the
    /// isa-swizzle when an observance is added or removed.
    public var runtimeClassName: ((KVOObject) throws -> String)?
    /// `--explain`: keys whose Swift `observe(…)` token ended (true: released,
    /// false: invalidated), so that a later silent change of one can say why.
    var endedObservations: [ObjectKey: Bool] = [:]
    /// `--explain`: objects whose initializer (or constructor labels) is
    /// running; while nobody observes one, its changes are not explained,
    /// since nothing can observe them.
    public var initializing: Set<ObjectIdentifier> = []
    /// `--explain`: how many changes of each object and key were started, so
    /// a custom setter that starts its own (manual) change is not also said
    /// to tell nobody.
    var changesStarted: [ObjectKey: Int] = [:]
    /// Set by an automatic change (a setter, a proxy) for the will phase it
    /// starts, so the explanation can tell it from `willChangeValue`.
    var explainAutomatic = false
    /// `--legacy-dealloc`: releasing an observed object raises, as before macOS 10.13.
    public var legacyDealloc = false
    /// Charges the work of long-running primitives to the interpreter's limits.
    public let work = WorkMeter()
    /// Result elements the running KVC call on collections may still build
    /// (`withResultAllowance`), and how many such calls are running.
    var resultAllowance = 0
    var resultNesting = 0

    /// Will-phase records waiting for their did phase, oldest first. A
    /// change taken from below the top stays as a tombstone (`isTaken`)
    /// until it reaches the top.
    private var pending: [PendingChange] = []
    /// How many of `pending` are tombstones, so `--explain` counts the live
    /// changes without walking the stack.
    private var tombstones = 0
    /// The pending changes of each object and key, most recent last; built
    /// only once a did phase finds its change below the top (a deep stack of
    /// pending changes of other keys made each search linear), dropped when
    /// nothing is pending. A set never needs it.
    private var pendingIndex: [ObjectKey: [PendingChange]]?

    /// Finished changes kept for reuse, so a notifying set allocates nothing new.
    private var spareChanges: [PendingChange] = []
    /// Emptied observation infos kept for reuse (see `remove(_:from:)`).
    private var spareInfos: [ObservationInfo] = []
    private var changeStamp = 0
    /// Counts handlers run, so cached values are known to be current.
    private var handlerRuns = 0

    public init(sink: EventSink) {
        self.sink = sink
    }

    // MARK: Objects

    /// Creates an instance; `name` nil gives `Class#n`.
    public func makeObject(_ cls: ClassInfo, name: String?) -> KVOObject {
        objectCount += 1
        return KVOObject(cls: cls, name: name)
    }

    /// `release(x)`: the object becomes a zombie and its observers are
    /// unregistered silently, as on macOS 10.13 and later.
    public func release(_ object: KVOObject) throws {
        if object.isReleased {
            throw ScriptError.runtime("\(object.description) was already released")
        }
        if legacyDealloc, let dump = object.observationInfoDescription {
            throw exception(Exceptions.deallocatedWhileObserved(object, observationInfo: dump))
        }
        object.isReleased = true
        if explains, explainsUnobservedReleases || object.observationInfo != nil {
            let observances = object.observationInfo?.observances ?? []
            explain(
                .released(object: object.name, observances: explainedList(observances), count: observances.count),
                listing: observances.count)
        }
        guard let info = object.observationInfo else { return }
        for observance in info.observances {
            if let root = observance.root {
                root.forwards.removeAll { $0 === observance }
            } else {
                observance.isRegistered = false
                detachForwards(of: observance)
            }
        }
        object.observationInfo = nil
    }

    public func checkAlive(_ object: KVOObject) throws {
        if object.isReleased {
            throw ScriptError.runtime("use of released object \(object.description)")
        }
    }

    /// Raises a Cocoa exception at the current depth.
    public func exception(_ nameAndReason: (String, String)) -> ScriptError {
        .exception(CocoaException(name: nameAndReason.0, reason: nameAndReason.1, depth: depth))
    }

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
        try checkAlive(object)
        try checkAlive(observer)
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
        try checkAlive(object)
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

    /// Takes a root observance out of its object's observation info, with its forwards.
    private func unregister(_ observance: Observance, from object: KVOObject) {
        if let info = object.observationInfo {
            info.remove(observance)
            if info.count == 0 { object.observationInfo = nil }
        }
        observance.isRegistered = false
        detachForwards(of: observance)
    }

    private func append(_ observance: Observance, to object: KVOObject) {
        if let info = object.observationInfo {
            info.append(observance)
        } else {
            let info = spareInfos.popLast() ?? ObservationInfo()
            info.append(observance)
            object.observationInfo = info
        }
    }

    /// Removes a forwarding observance. An object that loses its last one keeps
    /// no observation info, and the emptied info is kept for the next object that
    /// gains one: re-registering a key path's forwards on every swap of an object
    /// along it (B4) then allocates only the observance.
    private func remove(_ observance: Observance, from object: KVOObject) {
        guard let info = object.observationInfo else { return }
        info.remove(observance)
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
    private var lastSplit: (keyPath: String, components: [String])?

    /// Builds an observance watching `path[0]` of `object` and every key affecting it.
    private func makeObservance(
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

    /// Registers the forwarding observances a root needs on related objects: the
    /// rest of its key path, and affecting key paths through to-one relationships.
    /// Iterative with a visited set, so object cycles terminate. This runs on
    /// every replacement of an object along an observed path (B4 swaps one per
    /// iteration), so it builds no arrays beyond the observances themselves.
    /// At registration (`raisingOnCollections`), an affecting key path that
    /// reaches an array or a set is forwarded to it, which raises as
    /// `-[NSArray addObserver:…]` does; when an object along the path is
    /// replaced later, such a path is skipped.
    private func attachForwards(of root: Observance, raisingOnCollections: Bool = false) throws {
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
            let reached = try? value(of: .object(object), forKey: key)
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
                let start = rest.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
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

    private var forwardWork: [(KVOObject, ArraySlice<String>, Bool)] = []

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

    private var nestedPropertyContexts: [String: Context] = [:]

    private func detachForwards(of root: Observance) {
        for forward in root.forwards { remove(forward, from: forward.observed) }
        root.forwards.removeAllKeepingCapacity()
        root.dropSpareForwards()
    }

    /// Re-registers a root's forwarding observances after an object along its
    /// path was replaced (§6.7). The detached ones are kept as spares: the
    /// object they watched often comes back (B4 swaps between two accounts),
    /// and an observance depends only on its object, its path and its root.
    private func rebuildForwards(of root: Observance) {
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
    private func checkNoCollectionAlongPath(_ object: KVOObject, _ path: ArraySlice<String>) throws {
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
        try checkAlive(object)
        let change = spareChanges.popLast() ?? PendingChange()
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
            change.keepDirectObservers(info.slots)
            if direct.readsOld, let property = direct.property { change.sharedOld = try get(object, property) }
            return
        }
        changeStamp &+= 1
        let stamp = changeStamp
        let isSetting = spec.isSetting
        var hasPrior = false
        var sharedOldProperty: PropertyInfo?
        for case let entry? in info.slots where entry.isTriggered(by: key) {
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
        try checkAlive(object)
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
        let root = record.observance
        // `isRegistered` first: the common case reads no observation info.
        guard root.isRegistered || (root.observed.observationInfo?.isStillRegistered(root) ?? false) else {
            if explains { explain(.skipped(explained(root))) }
            return
        }
        if !reportsNotifications && !root.observer.cls.hasObserveValueHook {
            // With --quiet and no handler nothing reads this change dictionary:
            // count it without building it. A new value that runs code to be
            // read (a getter, a key path) is still read, for what that code
            // does; a stored value or a to-many detail has no side effects.
            if root.options.contains(.new) && !record.detailed && !root.readsStoredValue {
                _ = try newValue(of: root, object, &cache)
            }
            if root.observer.isReleased { try deliver(root, Change(kind: .setting)) }
            notificationCount += 1
            return
        }
        var notification = Change(kind: record.detailed ? change.spec.kind : .setting)
        if record.detailed, case .ordered(_, let indexes) = change.spec { notification.indexes = indexes }
        if root.options.contains(.new) && notification.kind != .removal {
            if record.detailed {
                notification.new = try detailValues(object, key, change.spec, old: false)
            } else {
                notification.new = try newValue(of: root, object, &cache)
            }
        }
        if root.options.contains(.old) && notification.kind != .insertion {
            notification.old = change.old(of: record) ?? .null
        }
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
        if !change.isTaken && spareChanges.count < 64 { spareChanges.append(change) }
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

    // MARK: Delivery (§6.8)

    /// Prints the notification, then runs the observer's `observeValue` one level deeper.
    private func deliver(_ observance: Observance, _ change: Change) throws {
        let observer = observance.observer
        if observer.isReleased {
            throw ScriptError.runtime(
                "*** -[\(observer.cls.name) observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance \(observer.description)"
            )
        }
        notificationCount += 1
        if reportsNotifications {
            sink.emit(
                .notify(
                    object: observance.observed, keyPath: observance.keyPath, observer: observer,
                    change: change, context: observance.context, depth: depth))
        }
        guard let handler = observer.cls.observeValueHook else { return }
        do {
            try nested {
                try handler(observer, observance.keyPath, observance.observed, change, observance.context)
            }
        } catch ScriptError.runtime(var failure) where failure.limit == .depth && failure.notificationTrail.count < 64 {
            // Unwinding a runaway loop: note which notifications it went through.
            failure.notificationTrail.append("\(observance.observed.name).\(observance.keyPath)")
            throw ScriptError.runtime(failure)
        }
    }

    /// Runs `body` one handler level deeper, within `maxDepth`.
    public func nested<T>(_ body: () throws -> T) throws -> T {
        guard depth < maxDepth else {
            throw ScriptError.runtime(
                RuntimeFailure("notifications nested deeper than the maximum depth (\(maxDepth))", limit: .depth))
        }
        try stackGuard.check("notifications")
        depth += 1
        handlerRuns &+= 1
        defer { depth -= 1 }
        return try body()
    }

    /// NSObject's `observeValue(forKeyPath:of:change:context:)`: a subclass failed
    /// to consume the notification.
    public func unhandledNotification(
        observer: KVOObject, keyPath: String, object: KVOObject,
        change: Change, context: Context?
    ) -> ScriptError {
        exception(
            Exceptions.unhandled(observer: observer, keyPath: keyPath, object: object, change: change, context: context)
        )
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

/// A change between its will and did phases; reused once delivered.
final class PendingChange {
    private(set) var object: KVOObject?
    private(set) var key = ""
    private(set) var spec = KVORuntime.ChangeSpec.setting
    /// Roots whose forwarding observances must follow a replaced object.
    var rebuild: [Observance] = []

    /// Taken by its did phase from below the top of the pending stack.
    var isTaken = false

    func start(object: KVOObject, key: String, spec: KVORuntime.ChangeSpec) {
        isTaken = false
        self.object = object
        self.key = key
        // A set's spec is `.setting` on both sides: no enum copy.
        if case .setting = spec, case .setting = self.spec { return }
        self.spec = spec
    }

    /// Recorded notifications in registration order. The first is kept
    /// inline: most changes notify one observance, and an array costs an
    /// allocation or a slow clear per change.
    private(set) var first: PendingRecord?
    private(set) var rest: [PendingRecord] = []
    /// Instead of records: the observed object's observances when the
    /// change was announced, all observing the changed key directly
    /// (`ObservationInfo.directSet(of:)`).
    private(set) var directObservers: [Observance?]?

    func keepDirectObservers(_ observers: [Observance?]) {
        directObservers = observers
    }

    func append(_ record: PendingRecord) {
        if first == nil { first = record } else { rest.append(record) }
    }

    var records: [PendingRecord] { (first.map { [$0] } ?? []) + rest }
    /// `records.count` and `records.last`, without building `records`
    /// (`--explain` asks at every record).
    var recordCount: Int { (first == nil ? 0 : 1) + rest.count }
    var lastRecord: PendingRecord? { rest.last ?? first }

    /// The old value of the changed key, read once for all direct observances.
    var sharedOld: Value?
    /// Old values of the records that do not share `sharedOld`, by `oldSlot`:
    /// kept apart so a record is a reference and two words, copied and
    /// destroyed without going through `Value`'s witnesses (B2 records
    /// 10,000 per set).
    private var olds: [Value] = []

    func keepOld(_ value: Value) -> Int {
        olds.append(value)
        return olds.count - 1
    }

    func old(of record: PendingRecord) -> Value? {
        switch record.oldSlot {
        case PendingRecord.sharedOld: return sharedOld
        case PendingRecord.noOld: return nil
        default: return olds[record.oldSlot]
        }
    }

    func finish() {
        object = nil
        first = nil
        directObservers = nil
        // Often the last holder of the old value: a collection is released
        // without recursion.
        switch sharedOld {
        case .array?, .set?:
            var old = sharedOld ?? .null
            sharedOld = nil
            Value.dispose(&old)
        default:
            sharedOld = nil
        }
        // Emptying an empty array still checks its uniqueness: skipped.
        if !rest.isEmpty { rest.removeAllKeepingCapacity() }
        if !olds.isEmpty { olds.removeAllKeepingCapacity() }
        if !rebuild.isEmpty { rebuild.removeAllKeepingCapacity() }
    }
}

struct PendingRecord {
    let observance: Observance
    /// Whether the to-many detail (kind, indexes, elements) reaches this observer.
    let detailed: Bool
    /// Where the old value is: `sharedOld` (the change's), `noOld`, or an
    /// index into the change's own old values.
    let oldSlot: Int

    static let sharedOld = -1
    static let noOld = -2
}

/// One key of one object, by the object's identity: the pending-change index
/// and the keys whose Swift token ended (`--explain`) are keyed by it.
struct ObjectKey: Hashable {
    let object: ObjectIdentifier
    let key: String
    init(_ object: KVOObject, _ key: String) {
        self.object = ObjectIdentifier(object)
        self.key = key
    }
}
