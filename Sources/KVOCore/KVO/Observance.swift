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
    /// When it was last registered, in its object's `ObservationInfo`'s
    /// count: grows with registration order, and unlike `position` is never
    /// renumbered, so the info's key index finds it by this.
    var serial = 0
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
