/// An object's observances in registration order (`-observationInfo`).
///
/// Removal must not be linear in the number of observers (adding then removing
/// 100,000 observers is a benchmark), so removed entries leave a hole that a
/// later compaction closes, and root observances are indexed by observer. The
/// index holds the observances themselves, not their positions, so a
/// compaction renumbers them without touching it.
public final class ObservationInfo {
    /// Registration order; nil where an observance was removed.
    private(set) var slots: [Observance?] = []
    /// Live observances.
    public private(set) var count = 0
    /// Live forwarding observances (a key path's links through this
    /// object): their objects change with every swap of the path, and the
    /// info with them (B4), so a set here does not ask `directSet(of:)`.
    private(set) var forwardingCount = 0
    /// Each observer's root observances, in registration order.
    private var byObserver: [ObjectIdentifier: Registrations] = [:]
    /// Live observances up to each slot, for `index(of:)` while removed
    /// entries leave holes: built the first time `--explain` asks, then kept
    /// in step with appends and removals until the next compaction. Counting
    /// the slots before an observance at each step made 60,000 explained
    /// registrations and removals quadratic.
    private var liveCounts: LiveCounts?
    /// For `object_getClass`: the live observances before slot
    /// `classifiedUpTo` that watch a key notified automatically. Kept on
    /// append and removal, so the question costs O(1) amortized instead of
    /// a walk of every observance at each call.
    private var automaticCount = 0
    private var classifiedUpTo = 0
    /// The observances by the keys that trigger them (see `KeyIndex`):
    /// built the first time a key is looked up among `keyIndexThreshold`
    /// observances or more, then kept in step until the info is reset. Not
    /// at registration: an object that is observed by many and never
    /// changed (adding and removing 1,000 observers) never needs one.
    private var keyIndex: KeyIndex?
    /// Whether it has built its key index (tests see which way a change went).
    var isKeyIndexed: Bool { keyIndex != nil }
    /// The next registration's `Observance.serial`.
    private var nextSerial = 0
    /// Observances past which a change looks its key up instead of walking
    /// them all: below it the walk is a few comparisons of short strings,
    /// and the index a dictionary per object that most objects (0 to 3
    /// observances) would carry for nothing.
    static let keyIndexThreshold = 16
    /// The object's derived properties' last values, and the version of
    /// its slots they were computed at.
    @usableFromInline var derived = DerivedValues()

    /// The value kept for a derived property (`key`) if nothing was stored
    /// into the object since (`DerivedValues`). Methods of the info rather
    /// than its `derived` read from outside: that would copy the struct,
    /// and retain and release its entries, at every read.
    public func derivedValue(for key: ObjectIdentifier) -> Value? { derived.value(for: key) }

    /// Keeps `value` for the derived property `key` (`DerivedValues.keep`).
    public func keepDerived(_ value: Value, for key: ObjectIdentifier) { derived.keep(value, for: key) }

    /// The live observances in registration order.
    public var observances: [Observance] { slots.compactMap { $0 } }

    /// Every live observance a change of `key` may trigger, and maybe others
    /// (ask each `isTriggered(by:)`), in registration order, with nil holes
    /// like `slots`: all the slots for an info with few observances, else
    /// those the key index lists for `key`. A copy-on-write copy: changes to
    /// the info after it is taken do not show in it.
    @inline(__always)
    func observances(triggeredBy key: String) -> [Observance?] {
        // Few observances are walked, even when an index was built before
        // some were removed: one comparison on the way of every set (B1).
        if count < Self.keyIndexThreshold { return slots }
        if let keyIndex { return keyIndex.observances(triggeredBy: key) }
        return buildKeyIndex().observances(triggeredBy: key)
    }

    /// Out of line: `observances(triggeredBy:)` is inlined into every change.
    @inline(never)
    private func buildKeyIndex() -> KeyIndex {
        let index = KeyIndex(slots)
        keyIndex = index
        return index
    }

    /// Whether some live observance (a root or a forwarding one) observes
    /// exactly the key `key`, found among the observances of that key.
    public func hasObservance(ofKeyPath key: String) -> Bool {
        observances(triggeredBy: key).contains { $0?.isKeyPath(key) ?? false }
    }

    /// Changes with every append and removal: `directSet(of:)` is cached per version.
    private var version = 0
    private var directSetKey: String?
    private var directSetVersion = -1
    private var directSetAnswer: DirectSet?

    /// What a set of `key` needs when every observance it triggers is a root
    /// observing one property here, without `.prior` (nil otherwise): `key`
    /// itself, or a key that depends on it whose getter is pure
    /// (`PropertyInfo.getterIsPure`: reading it when the set reads it gives
    /// what the will and did would). Then the observances to notify are those
    /// of `observances(triggeredBy:)` that `key` triggers, and a change keeps
    /// that array itself (O(1)) instead of a record for each (B2: 10,000 per
    /// set). Cached until the observances change.
    @inline(__always)
    func directSet(of key: String) -> DirectSet? {
        if directSetVersion == version, let directSetKey, directSetKey == key { return directSetAnswer }
        return recomputeDirectSet(of: key)
    }

    @inline(never)
    private func recomputeDirectSet(of key: String) -> DirectSet? {
        let answer = computeDirectSet(of: key)
        directSetKey = key
        directSetVersion = version
        directSetAnswer = answer
        return answer
    }

    /// `directSet(of:)` worked out afresh.
    private func computeDirectSet(of key: String) -> DirectSet? {
        var answer: DirectSet? = DirectSet(property: nil, readsOld: false, isDependent: false)
        for case let entry? in observances(triggeredBy: key) where entry.isTriggered(by: key) {
            guard entry.root == nil, !entry.needsRebuild, !entry.options.contains(.prior),
                let property = entry.directProperty, entry.detailKey == key || property.getterIsPure,
                answer?.property == nil || answer?.property === property
            else {
                answer = nil
                break
            }
            answer = DirectSet(
                property: property, readsOld: answer?.readsOld == true || entry.options.contains(.old),
                isDependent: entry.detailKey != key)
        }
        return answer
    }

    struct DirectSet {
        /// The property all of them read (nil when none is triggered): the
        /// key set, or a pure key that depends on it. Not
        /// retained (`UncheckedReference`): the observances that hold it
        /// outlive the cached answer, and a retain and release of it per set
        /// cost 4% of B1.
        private let reference: UncheckedReference<PropertyInfo>?
        var property: PropertyInfo? {
            @inline(__always) get { reference?.object }
        }
        /// Some of them want the old value.
        let readsOld: Bool
        /// The property is a pure key depending on the key set, not the key.
        let isDependent: Bool

        init(property: PropertyInfo?, readsOld: Bool, isDependent: Bool) {
            reference = property.map(UncheckedReference.init)
            self.readsOld = readsOld
            self.isDependent = isDependent
        }
    }

    func append(_ observance: Observance) {
        version &+= 1
        observance.position = slots.count
        observance.serial = nextSerial
        nextSerial &+= 1
        observance.isRemoved = false
        if observance.root == nil {
            // One hash, and the entry is changed in place.
            byObserver[ObjectIdentifier(observance.observer), default: Registrations()].append(observance)
        } else {
            forwardingCount += 1
        }
        slots.append(observance)
        count += 1
        liveCounts?.append(live: true)
        keyIndex?.append(observance)
    }

    func remove(_ observance: Observance) {
        let position = observance.position
        guard position < slots.count, slots[position] === observance else { return }
        slots[position] = nil
        version &+= 1
        count -= 1
        observance.isRemoved = true
        keyIndex?.remove(observance)
        liveCounts?.remove(at: position)
        if position < classifiedUpTo, observance.notifiesAutomatically == true { automaticCount -= 1 }
        if observance.root != nil { forwardingCount -= 1 }
        if observance.root == nil, let index = byObserver.index(forKey: ObjectIdentifier(observance.observer)),
            byObserver.values[index].remove(observance)
        {
            byObserver.remove(at: index)
        }
        if slots.count > 32 && count * 2 < slots.count { compact() }
    }

    /// The most recently added root observance of `observer` for `keyPath`
    /// whose context matches.
    func lastRegistration(of observer: KVOObject, keyPath: String, context: KVORuntime.ContextMatch) -> Observance? {
        byObserver[ObjectIdentifier(observer)]?.last(keyPath: keyPath, context: context)
    }

    /// How many root observances of `observer` for `keyPath` match `context`
    /// (`--explain` names the count when `removeObserver` picks one), counted
    /// in the index rather than by a scan of every observance.
    func registrationCount(of observer: KVOObject, keyPath: String, context: KVORuntime.ContextMatch) -> Int {
        byObserver[ObjectIdentifier(observer)]?.count(keyPath: keyPath, context: context) ?? 0
    }

    /// Empties an info with no live observance for reuse; false when it grew
    /// too large to be worth keeping.
    func reset() -> Bool {
        guard count == 0, slots.capacity <= 64 else { return false }
        slots.removeAllKeepingCapacity()
        version &+= 1
        byObserver = [:]
        liveCounts = nil
        keyIndex = nil
        automaticCount = 0
        forwardingCount = 0
        classifiedUpTo = 0
        return true
    }

    private func compact() {
        version &+= 1
        classifiedUpTo = slots[..<classifiedUpTo].reduce(0) { $1 == nil ? $0 : $0 + 1 }
        slots = slots.filter { $0 != nil }
        for (position, observance) in slots.enumerated() { observance?.position = position }
        liveCounts = nil
    }

    /// Whether some live observance watches a key its class notifies
    /// automatically (KVO's subclass replaced the object's class, SPEC
    /// §11.4). `notifiesAutomatically` answers for an observance not yet
    /// classified; each is asked once, in registration order, and only
    /// until one says yes.
    public func hasAutomaticObservance(_ notifiesAutomatically: (Observance) throws -> Bool) rethrows -> Bool {
        while automaticCount == 0, classifiedUpTo < slots.count {
            if let entry = slots[classifiedUpTo] {
                let automatic = try entry.notifiesAutomatically ?? notifiesAutomatically(entry)
                entry.notifiesAutomatically = automatic
                if automatic { automaticCount += 1 }
            }
            classifiedUpTo += 1
        }
        return automaticCount > 0
    }

    /// The observance's index among the live ones, as a dump numbers it: its
    /// position when no removal left a hole, else the live ones before it.
    public func index(of observance: Observance) -> Int? {
        let position = observance.position
        guard !observance.isRemoved, position < slots.count, slots[position] === observance else { return nil }
        if count == slots.count { return position }
        if liveCounts == nil { liveCounts = LiveCounts(slots) }
        return liveCounts?.prefix(position)
    }

    /// Whether `observance`, or an identical registration, is registered here now.
    /// An identical one observes the same key path, so its first key triggers it.
    func isStillRegistered(_ observance: Observance) -> Bool {
        if observance.isRegistered { return true }
        return observances(triggeredBy: observance.firstKey).contains { $0?.isIdentical(to: observance) ?? false }
    }

    #if KVO_CHECKED
    /// The checked lane's audit (`KVORuntime._checkInvariants()`): every
    /// live observance sits at its position, the holes and counts agree,
    /// the observer index holds exactly the live roots, the live counts of
    /// `--explain` match the slots, and a cached direct-set answer is still
    /// the answer.
    public func _checkInvariants() {
        var live = 0
        var roots = 0
        var automatic = 0
        for (position, slot) in slots.enumerated() {
            guard let observance = slot else { continue }
            precondition(observance.position == position, "an observance's position is not its slot")
            precondition(!observance.isRemoved, "a removed observance is still in a slot")
            if let counts = liveCounts {
                precondition(counts.prefix(position) == live, "the live counts disagree with the slots")
            }
            live += 1
            if observance.root == nil {
                roots += 1
                precondition(
                    byObserver[ObjectIdentifier(observance.observer)] != nil, "a live root is missing from the index")
            }
            if position < classifiedUpTo, observance.notifiesAutomatically == true { automatic += 1 }
        }
        precondition(live == count, "count is not the number of live observances")
        precondition(live - roots == forwardingCount, "the forwarding count is not the live forwarding observances")
        precondition(classifiedUpTo <= slots.count, "classified past the last slot")
        precondition(automatic == automaticCount, "the automatic count disagrees with the classified slots")
        let indexed = byObserver.values.reduce(0) { $0 + $1.liveCount }
        precondition(indexed == roots, "the observer index does not hold exactly the live roots")
        keyIndex?._checkInvariants(observances)
        if directSetVersion == version, let directSetKey {
            let fresh = computeDirectSet(of: directSetKey)
            precondition(
                fresh?.property === directSetAnswer?.property && fresh?.readsOld == directSetAnswer?.readsOld
                    && fresh?.isDependent == directSetAnswer?.isDependent && (fresh == nil) == (directSetAnswer == nil),
                "the cached direct-set answer is stale")
        }
    }
    #else
    @inline(__always) public func _checkInvariants() {}
    #endif
}
