/// The KVO engine: registration, the will/did pending model of docs/language.md#order,
/// dependent keys, key-path forwarding and delivery. KVC lives in `KVC.swift`,
/// collection proxies in `CollectionMutations.swift`.
///
/// Everything it produces goes to `sink`; it never prints.
public final class KVORuntime {
    public let sink: EventSink
    /// Handlers running now: the `depth` of events.
    public internal(set) var depth = 0
    /// Deepest handler nesting allowed (`--max-depth`).
    public var maxDepth = KVORuntime.defaultMaxDepth
    /// `--max-depth`'s default, for scenarios and Swift programs alike: the
    /// one place it is stated (the settings types and the parser refer here).
    public static let defaultMaxDepth = 1000
    /// The native stack of the thread this runtime runs on (the one it is
    /// created on).
    public var stackGuard = StackGuard.currentThread
    public internal(set) var notificationCount = 0
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
    var pending: [PendingChange] = []
    /// How many of `pending` are tombstones, so `--explain` counts the live
    /// changes without walking the stack.
    var tombstones = 0
    /// The pending changes of each object and key, most recent last; built
    /// only once a did phase finds its change below the top (a deep stack of
    /// pending changes of other keys made each search linear), dropped when
    /// nothing is pending. A set never needs it.
    var pendingIndex: [ObjectKey: [PendingChange]]?

    /// Finished changes kept for reuse, so a notifying set allocates nothing new.
    var spareChanges: [PendingChange] = []
    /// The most recently finished change, kept apart from `spareChanges`: a
    /// set that nests no other change takes and gives back this one, without
    /// the array's uniqueness checks (`popLast`, `append`).
    var spareChange: PendingChange?
    /// Emptied observation infos kept for reuse (see `remove(_:from:)`).
    var spareInfos: [ObservationInfo] = []
    var changeStamp = 0
    /// Counts handlers run, so cached values are known to be current.
    var handlerRuns = 0
    /// Counts the setters a compiled program has started (KVOFoundation's
    /// `_kvoWill`): a stored property's value read since the last one is
    /// still what its getter reads (`deliverStoredSet`).
    public var settersStarted = 0
    /// The last key path split (`split(_:)`).
    var lastSplit: (keyPath: String, components: [String])?
    /// The work list of `attachForwards(of:raisingOnCollections:)`, kept for its storage.
    var forwardWork: [(KVOObject, ArraySlice<String>, Bool)] = []
    /// `nestedPropertyContext(_:_:)`'s contexts by name.
    var nestedPropertyContexts: [String: Context] = [:]

    #if KVO_CHECKED
    /// Observation infos changed since the last invariant check
    /// (`_checkInvariants()`), by identity.
    var changedInfos: [ObjectIdentifier: ObservationInfo] = [:]
    #endif
    /// Invariant checks run so far (0 outside the checked lane): tests see
    /// that the interpreter runs them.
    public internal(set) var invariantChecks = 0

    public init(sink: EventSink) {
        self.sink = sink
    }

    // MARK: Objects

    /// Creates an instance; `name` nil gives `Class#n`.
    public func makeObject(_ cls: ClassInfo, name: String?) -> KVOObject {
        objectCount += 1
        return KVOObject.make(cls: cls, name: name)
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

    /// Raises a Cocoa exception at the current depth.
    public func exception(_ nameAndReason: (String, String)) -> ScriptError {
        .exception(CocoaException(name: nameAndReason.0, reason: nameAndReason.1, depth: depth))
    }
}
