/// One registration. A user's `addObserver` creates a *root* observance on the
/// observed object; observing a key path through relationships, or a key with
/// affecting key paths through relationships, makes the engine add *forwarding*
/// observances on the related objects, which notify the root's observer.
public final class Observance {
    /// The object whose observation info holds this observance.
    public let observed: KVOObject
    /// nil for a user's registration; the user's observance for a forwarding one.
    public let root: Observance?
    public let observer: KVOObject
    /// The full key path for a root; the rest of the path from `observed` otherwise.
    public var keyPath: String { storedKeyPath ?? components.joined(separator: ".") }
    /// A forwarding observance's path is joined only when shown: a long key
    /// path would otherwise cost time quadratic in its length to register.
    private let storedKeyPath: String?
    /// `keyPath` split at dots, once; forwarding observances share the root's storage.
    let components: ArraySlice<String>
    /// The first key of `keyPath`, without joining the path.
    public var firstKey: String { components.first ?? "" }
    /// Whether `keyPath` is the single key `key`, without joining the path.
    public func isKeyPath(_ key: String) -> Bool { components.count == 1 && components.first == key }

    /// `keyPath`, joined only up to about `limit` characters and then cut
    /// with `…`: 24,000 forwarding observances of one long path must not
    /// each join their whole rest of it to be shown.
    public func keyPath(shownUpTo limit: Int) -> String {
        var text = ""
        for (offset, component) in components.enumerated() {
            if offset > 0 { text += "." }
            text += component
            // utf8.count is O(1); characters are counted only past it.
            if text.utf8.count > limit, text.count > limit { return String(text.prefix(limit)) + "…" }
        }
        return text
    }
    public let options: ObservingOptions
    public let context: Context?

    /// Keys of `observed` whose change affects this observance.
    let triggerKeys: [String]
    /// Its key's dependency closure was too large to store: its class
    /// answers which changes reach it (`ClassInfo.affects(_:_:)`).
    let largeClosure: Bool
    /// The key whose to-many detail (kinds 2–4, indexes) reaches the observer.
    let detailKey: String?
    /// A change of a trigger key can replace an object along the path.
    let needsRebuild: Bool

    /// Root only: forwarding observances registered on related objects.
    var forwards: [Observance] = []
    /// Root only: forwarding observances the last rebuilds detached, most
    /// recent last, for `takeSpareForward` to register again.
    private(set) var spareForwards: [Observance] = []
    /// Spares kept per root: enough for a few objects taking turns along a path.
    private static let maxSpareForwards = 8
    /// Root only: false once removed.
    public internal(set) var isRegistered = true
    /// The change that last recorded this observance as pending, so each
    /// observance is notified once per change.
    var lastChangeStamp = 0
    /// Where it sits in its object's `ObservationInfo`.
    var position = 0
    /// Taken out of its object's `ObservationInfo` (lazily out of its indexes).
    var isRemoved = false
    /// Whether it watches a key its class notifies automatically (so that
    /// `object_getClass` shows KVO's subclass); nil until first asked.
    var notifiesAutomatically: Bool?
    /// Root only: the property a single-key path reads, so reading old and new
    /// values skips key-path parsing.
    var directProperty: PropertyInfo? {
        didSet { readsStoredValue = directProperty?.slot != nil }
    }
    /// `directProperty` is stored: reading it runs no code, so a quiet
    /// delivery may skip it.
    private(set) var readsStoredValue = false

    init(
        observed: KVOObject, root: Observance?, observer: KVOObject, keyPath: String?, components: ArraySlice<String>,
        options: ObservingOptions, context: Context?, triggerKeys: [String], detailKey: String?,
        needsRebuild: Bool, largeClosure: Bool = false
    ) {
        self.observed = observed
        self.root = root
        self.observer = observer
        self.storedKeyPath = keyPath
        self.components = components
        self.options = options
        self.context = context
        self.triggerKeys = triggerKeys
        self.detailKey = detailKey
        self.needsRebuild = needsRebuild
        self.largeClosure = largeClosure
    }

    /// Same observer, key path, options and context: Apple shares one observance.
    func isIdentical(to other: Observance) -> Bool {
        observer === other.observer && keyPath == other.keyPath && options == other.options
            && context === other.context && root == nil && other.root == nil
    }

    /// Root only: for each key of a dotted path, the property it names on the
    /// class it was last read from, so reading the path's value (twice per
    /// change) looks no key up by name.
    private var resolvedPath: [ResolvedKey] = []

    private struct ResolvedKey {
        let cls: ObjectIdentifier
        /// nil for an operator or a key the class has no property for.
        let property: PropertyInfo?
    }

    /// The property that key `step` of the path names on `cls`; nil for an
    /// operator or an undefined key.
    @inline(__always)
    func pathProperty(_ step: Int, on cls: ClassInfo) -> PropertyInfo? {
        if step < resolvedPath.count, resolvedPath[step].cls == ObjectIdentifier(cls) {
            return resolvedPath[step].property
        }
        return resolvePathProperty(step, on: cls)
    }

    private func resolvePathProperty(_ step: Int, on cls: ClassInfo) -> PropertyInfo? {
        let key = components[components.startIndex + step]
        let property = KeyPaths.isOperator(key) ? nil : cls.kvcProperty(named: key)
        let resolved = ResolvedKey(cls: ObjectIdentifier(cls), property: property)
        if step < resolvedPath.count {
            resolvedPath[step] = resolved
        } else if step == resolvedPath.count {
            resolvedPath.append(resolved)
        }
        return property
    }

    /// Keeps a detached forwarding observance for reuse.
    func keepSpareForward(_ forward: Observance) {
        if spareForwards.count == Self.maxSpareForwards { spareForwards.removeFirst() }
        spareForwards.append(forward)
    }

    /// A spare forwarding observance of `object` for `path`, taken out of the
    /// spares; nil when there is none.
    func takeSpareForward(
        on object: KVOObject, path: ArraySlice<String>, options: ObservingOptions, context: Context?
    ) -> Observance? {
        guard
            let index = spareForwards.lastIndex(where: {
                $0.observed === object && $0.components == path && $0.options == options && $0.context === context
            })
        else {
            return nil
        }
        return spareForwards.remove(at: index)
    }

    /// Forgets the spares, when the root stops observing.
    func dropSpareForwards() {
        spareForwards.removeAllKeepingCapacity()
    }

    func isTriggered(by key: String) -> Bool {
        // The key that triggered it last is usually the one changing again
        // (LabColor's lComponent, fifth of color's triggers): an equal
        // string is recognised from its bits, an unequal one costs a
        // comparison call.
        if let lastTrigger, key == lastTrigger { return true }
        if largeClosure { return observed.cls.affects(key, firstKey) }
        for trigger in triggerKeys where trigger == key {
            lastTrigger = trigger
            return true
        }
        return false
    }
    private var lastTrigger: String?
}

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

    /// The live observances in registration order.
    public var observances: [Observance] { slots.compactMap { $0 } }

    /// Changes with every append and removal: `directSet(of:)` is cached per version.
    private var version = 0
    private var directSetKey: String?
    private var directSetVersion = -1
    private var directSetAnswer: DirectSet?

    /// What a set of `key` needs when every observance it triggers is a root
    /// observing exactly `key` here, without `.prior` (nil otherwise): then
    /// the observances to notify are those of `slots` that `key` triggers, and
    /// a change keeps the array itself (O(1)) instead of a record for each
    /// (B2: 10,000 per set). Cached until the observances change.
    func directSet(of key: String) -> DirectSet? {
        if directSetVersion == version, let directSetKey, directSetKey == key { return directSetAnswer }
        var answer: DirectSet? = DirectSet(property: nil, readsOld: false)
        for case let entry? in slots where entry.isTriggered(by: key) {
            guard entry.root == nil, !entry.needsRebuild, !entry.options.contains(.prior),
                let property = entry.directProperty, entry.detailKey == key,
                answer?.property == nil || answer?.property === property
            else {
                answer = nil
                break
            }
            answer = DirectSet(property: property, readsOld: answer?.readsOld == true || entry.options.contains(.old))
        }
        directSetKey = key
        directSetVersion = version
        directSetAnswer = answer
        return answer
    }

    struct DirectSet {
        /// The property all of them read (nil when none is triggered). Not
        /// retained: the observances that hold it outlive the cached answer,
        /// and a retain and release of it per set cost 4% of B1.
        unowned(unsafe) let property: PropertyInfo?
        /// Some of them want the old value.
        let readsOld: Bool
    }

    func append(_ observance: Observance) {
        version &+= 1
        observance.position = slots.count
        observance.isRemoved = false
        if observance.root == nil {
            // One hash, and the entry is changed in place.
            byObserver[ObjectIdentifier(observance.observer), default: Registrations()].append(observance)
        }
        slots.append(observance)
        count += 1
        liveCounts?.append(live: true)
    }

    func remove(_ observance: Observance) {
        let position = observance.position
        guard position < slots.count, slots[position] === observance else { return }
        slots[position] = nil
        version &+= 1
        count -= 1
        observance.isRemoved = true
        liveCounts?.remove(at: position)
        if position < classifiedUpTo, observance.notifiesAutomatically == true { automaticCount -= 1 }
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
        automaticCount = 0
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
    func isStillRegistered(_ observance: Observance) -> Bool {
        if observance.isRegistered { return true }
        return slots.contains { $0?.isIdentical(to: observance) ?? false }
    }
}

/// Which slots of an `ObservationInfo` hold a live observance, as a Fenwick
/// tree: how many live ones precede a slot, and a removal, cost O(log n).
struct LiveCounts {
    /// 1-based: `tree[i]` counts the live slots in (i - lowbit(i), i].
    private var tree: [Int]

    init(_ slots: [Observance?]) {
        tree = [0] + slots.map { $0 == nil ? 0 : 1 }
        for i in tree.indices.dropFirst() {
            let parent = i + (i & -i)
            if parent < tree.count { tree[parent] += tree[i] }
        }
    }

    /// Live slots among the first `slots` (positions 0..<slots).
    func prefix(_ slots: Int) -> Int {
        var sum = 0
        var i = slots
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    mutating func append(live: Bool) {
        let i = tree.count
        tree.append((live ? 1 : 0) + prefix(i - 1) - prefix(i - (i & -i)))
    }

    mutating func remove(at position: Int) {
        var i = position + 1
        while i < tree.count {
            tree[i] -= 1
            i += i & -i
        }
    }
}

/// One observer's root observances in an `ObservationInfo`. Most observers
/// register once per object, so the first is kept inline: indexing 100,000
/// observers allocates nothing per observer. Later ones are indexed by key
/// path and by key path and context, so `removeObserver` finds the most
/// recent match without scanning every registration of the observer (50,000
/// of them removed oldest first was quadratic).
struct Registrations {
    private(set) var first: Observance?
    private var more: RegistrationIndex?

    mutating func append(_ observance: Observance) {
        if first == nil && (more?.live ?? 0) == 0 {
            first = observance
            return
        }
        let index = more ?? RegistrationIndex()
        more = index
        index.append(observance)
    }

    /// Removes `observance` (already marked `isRemoved`); true when none is left.
    mutating func remove(_ observance: Observance) -> Bool {
        if first === observance {
            first = nil
        } else {
            more?.noteRemoved(observance)
        }
        return first == nil && (more?.live ?? 0) == 0
    }

    /// How many registrations for `keyPath` match `context`.
    func count(keyPath: String, context: KVORuntime.ContextMatch) -> Int {
        var total = more?.count(keyPath: keyPath, context: context) ?? 0
        if let first, first.keyPath == keyPath {
            switch context {
            case .any: total += 1
            case .exactly(let wanted): if first.context === wanted { total += 1 }
            }
        }
        return total
    }

    /// The most recent registration for `keyPath` whose context matches.
    func last(keyPath: String, context: KVORuntime.ContextMatch) -> Observance? {
        var best = more?.last(keyPath: keyPath, context: context)
        if let first, first.keyPath == keyPath {
            let matches: Bool
            switch context {
            case .any: matches = true
            case .exactly(let wanted): matches = first.context === wanted
            }
            // Positions follow registration order.
            if matches, best.map({ first.position > $0.position }) ?? true { best = first }
        }
        return best
    }
}

/// The registrations of one observer past its first, oldest first in each
/// list. A removed one stays in its lists until it is found at the end of
/// one, or until they are compacted, which keeps removal O(1) amortized.
final class RegistrationIndex {
    private var byPath: [String: [Observance]] = [:]
    private var byPathAndContext: [PathAndContext: [Observance]] = [:]
    private(set) var live = 0
    private var removed = 0
    /// Live registrations per list, for `count(keyPath:context:)`.
    private var liveByPath: [String: Int] = [:]
    private var liveByPathAndContext: [PathAndContext: Int] = [:]

    private struct PathAndContext: Hashable {
        let keyPath: String
        let context: ObjectIdentifier?
    }

    func append(_ observance: Observance) {
        let keyPath = observance.keyPath
        byPath[keyPath, default: []].append(observance)
        let withContext = PathAndContext(keyPath: keyPath, context: observance.context.map(ObjectIdentifier.init))
        byPathAndContext[withContext, default: []].append(observance)
        liveByPath[keyPath, default: 0] += 1
        liveByPathAndContext[withContext, default: 0] += 1
        live += 1
    }

    func count(keyPath: String, context: KVORuntime.ContextMatch) -> Int {
        switch context {
        case .any:
            return liveByPath[keyPath] ?? 0
        case .exactly(let wanted):
            return liveByPathAndContext[PathAndContext(keyPath: keyPath, context: wanted.map(ObjectIdentifier.init))]
                ?? 0
        }
    }

    func noteRemoved(_ observance: Observance) {
        let keyPath = observance.keyPath
        let withContext = PathAndContext(keyPath: keyPath, context: observance.context.map(ObjectIdentifier.init))
        liveByPath[keyPath, default: 1] -= 1
        if liveByPath[keyPath] == 0 { liveByPath[keyPath] = nil }
        liveByPathAndContext[withContext, default: 1] -= 1
        if liveByPathAndContext[withContext] == 0 { liveByPathAndContext[withContext] = nil }
        live -= 1
        removed += 1
        if removed > live + 32 { compact() }
    }

    func last(keyPath: String, context: KVORuntime.ContextMatch) -> Observance? {
        switch context {
        case .any:
            return Self.lastLive(&byPath, keyPath)
        case .exactly(let wanted):
            return Self.lastLive(
                &byPathAndContext, PathAndContext(keyPath: keyPath, context: wanted.map(ObjectIdentifier.init)))
        }
    }

    /// The last live entry of `lists[key]`, dropping removed ones at its end.
    private static func lastLive<Key: Hashable>(_ lists: inout [Key: [Observance]], _ key: Key) -> Observance? {
        guard let index = lists.index(forKey: key) else { return nil }
        while let last = lists.values[index].last, last.isRemoved { lists.values[index].removeLast() }
        return lists.values[index].last
    }

    private func compact() {
        byPath = byPath.compactMapValues { list in
            let kept = list.filter { !$0.isRemoved }
            return kept.isEmpty ? nil : kept
        }
        byPathAndContext = byPathAndContext.compactMapValues { list in
            let kept = list.filter { !$0.isRemoved }
            return kept.isEmpty ? nil : kept
        }
        removed = 0
    }
}

/// A line of an observation-info dump, resolved to names (docs/language.md#observation-info).
public struct ObservanceSnapshot: Equatable {
    public let index: Int
    public let observer: String
    public let keyPath: String
    public let options: ObservingOptions
    public let context: Context?
    public let property: String

    public static func == (a: ObservanceSnapshot, b: ObservanceSnapshot) -> Bool {
        a.index == b.index && a.observer == b.observer && a.keyPath == b.keyPath
            && a.options == b.options && a.context === b.context && a.property == b.property
    }
}

extension KVOObject {
    /// The observances of this object, with forwarding ones naming their root (`person[0]`).
    /// Identical registrations (same observer, key path, options and
    /// context) share one observance in Apple's KVO, so each is named after
    /// the first of them (`acct[0]` twice), and so is a root a forwarder names.
    public var observanceSnapshots: [ObservanceSnapshot] {
        guard let info = observationInfo else { return [] }
        var sharedByObject: [ObjectIdentifier: [Int]] = [:]
        func observerName(_ observance: Observance) -> String {
            guard let root = observance.root else { return observance.observer.name }
            let rootObject = root.observed
            let rootIndex = rootObject.observationInfo?.index(of: root) ?? 0
            let shared =
                sharedByObject[ObjectIdentifier(rootObject)]
                ?? {
                    let computed = rootObject.sharedObservanceIndexes(names: nil)
                    sharedByObject[ObjectIdentifier(rootObject)] = computed
                    return computed
                }()
            return "\(rootObject.name)[\(rootIndex < shared.count ? shared[rootIndex] : rootIndex)]"
        }
        let names = info.observances.map(observerName)
        let shared = sharedObservanceIndexes(names: names)
        return info.observances.enumerated().map { index, observance in
            ObservanceSnapshot(
                index: shared[index], observer: names[index], keyPath: observance.keyPath,
                options: observance.options, context: observance.context,
                property: "\(cls.name).\(observance.keyPath)")
        }
    }

    /// For each observance, the position of the first identical one (itself
    /// when none is before it), given each one's observer name (`known`).
    /// Without them only roots are compared, which is all a forwarder's name
    /// needs: a root's observer is an object, whose name has no brackets, so
    /// no forwarder (observer `p[0]`) is ever identical to a root.
    fileprivate func sharedObservanceIndexes(names known: [String]?) -> [Int] {
        struct Identity: Hashable {
            let observer: String
            let keyPath: String
            let options: UInt8
            let context: ObjectIdentifier?
        }
        guard let observances = observationInfo?.observances else { return [] }
        var first: [Identity: Int] = [:]
        var shared: [Int] = []
        shared.reserveCapacity(observances.count)
        for (index, observance) in observances.enumerated() {
            // A root's observer is an object: its name is unique. A
            // forwarder's root is a root, whose name needs no further lookup.
            let name: String
            if let known {
                name = known[index]
            } else if observance.root == nil {
                name = observance.observer.name
            } else {
                shared.append(index)
                continue
            }
            let identity = Identity(
                observer: name, keyPath: observance.keyPath, options: observance.options.rawValue,
                context: observance.context.map(ObjectIdentifier.init))
            if let earlier = first[identity] {
                shared.append(earlier)
            } else {
                first[identity] = index
                shared.append(index)
            }
        }
        return shared
    }

    /// Apple's `-observationInfo` description, or nil when nobody observes.
    public var observationInfoDescription: String? {
        let snapshots = observanceSnapshots
        if snapshots.isEmpty { return nil }
        var lines = ["<NSKeyValueObservationInfo \(name)> ("]
        for item in snapshots {
            func flag(_ option: ObservingOptions) -> String { item.options.contains(option) ? "YES" : "NO" }
            lines.append(
                "<NSKeyValueObservance \(name)[\(item.index)]: Observer: \(item.observer), Key path: \(item.keyPath), Options: <New: \(flag(.new)), Old: \(flag(.old)), Prior: \(flag(.prior))> Context: \(item.context?.name ?? "0x0"), Property: \(item.property)>"
            )
        }
        lines.append(")")
        return lines.joined(separator: "\n")
    }
}
