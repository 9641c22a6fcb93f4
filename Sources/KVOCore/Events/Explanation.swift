/// One step of the engine's reasoning, reported with `--explain` (the
/// `.explain` event): what KVO does and why. The engine builds these only
/// when `KVORuntime.explains` is true; every field is already resolved to
/// names, so an output format only lays them out (docs/explain.md).
public enum Explanation {
    /// `addObserver`: the observance now registered, and the forwarding
    /// observances the engine added for its key path or its affecting key paths.
    case registered(ExplainedObservance, forwards: [ExplainedObservance])
    /// `.initial`: delivered inside `addObserver`, before the registration takes effect.
    case initial(ExplainedObservance)
    /// `removeObserver`: which registration was taken out. `candidates` is how
    /// many registrations of that observer and key path matched; with
    /// `anyContext` (no `context:` given) the most recent one is picked.
    case removed(ExplainedObservance, candidates: Int, anyContext: Bool, forwards: [ExplainedObservance])
    /// `release(x)`: its `count` observances were unregistered silently (the
    /// first `KVORuntime.explainedListLimit` listed).
    case released(object: String, observances: [ExplainedObservance], count: Int)
    /// A change begins: `automatic` when a setter, `setValue` or a collection
    /// proxy wrapped it in will/did; false for `willChangeValue` called by the script.
    case changeStarts(object: String, key: String, kind: Change.Kind, automatic: Bool)
    /// Will phase: an observance affected by the change, recorded as pending.
    case recorded(ExplainedObservance, route: ExplainedRoute, old: String?)
    /// Will phase: an observance reached a second time through another
    /// dependency of the same change; it is told once.
    case alreadyRecorded(ExplainedObservance)
    /// Will phase: the prior notification of an observance that asked for `.prior`.
    case prior(ExplainedObservance)
    /// Will phase finished: the pending stack (its top few, the top last).
    case pendingStack(ExplainedStack)
    /// Did phase: the change popped and the order in which its pending
    /// notifications are tried (the most recent registration first): the
    /// first `KVORuntime.explainedListLimit` of its `count`.
    case didStarts(object: String, key: String, order: [ExplainedObservance], count: Int, stack: ExplainedStack)
    /// Did phase: checked against the current observation info and delivered.
    /// `identical`: its own registration was removed, an identical one stands.
    case delivering(ExplainedObservance, new: String?, identical: Bool)
    /// Did phase: not delivered, because it was removed between will and did.
    case skipped(ExplainedObservance)
    /// Did phase: registered between will and did, so not told of this change.
    case addedMidChange(ExplainedObservance)
    /// A replaced object along an observed key path: the root's forwarding
    /// observances left the old objects and were registered on the new ones.
    case forwardsMoved(ExplainedObservance, from: [ExplainedObservance], to: [ExplainedObservance])
    /// Nobody is told, and why.
    case silent(object: String, key: String, reason: SilentReason)
    /// The isa-swizzle: the object's class replaced by the generated
    /// `NSKVONotifying_` subclass (`to`), or given back (`to` is the class).
    case classChanged(object: String, from: String, to: String, swizzled: Bool)
    /// Swift's `NSKeyValueObservation` for `keyPath` of `object` ended: its
    /// token was released (`released`) or `invalidate()`d.
    case observationEnded(object: String, keyPath: String, released: Bool)
    /// The list of the step before was cut at `KVORuntime.explainedListLimit`:
    /// `count` more observances are not listed.
    case notListed(count: Int)

    /// Why a change notifies nobody.
    public enum SilentReason: String, Sendable {
        /// The object has no observation info at all.
        case noObservers
        /// The object is observed, but no observance is affected by this key.
        case noObserversOfKey
        /// `@manual`: the class does not notify this key automatically.
        case manual
        /// `automaticallyNotifiesObservers(forKey:)` returns false for it.
        case notAutomatic
        /// `_ivar = v`: the instance variable, never a setter.
        case ivarWrite
        /// `didChangeValue` with no pending `willChangeValue` for that key.
        case unpairedDidChange
        /// A Swift assignment to a property that is not `@objc dynamic`: its
        /// setter runs directly, KVO's subclass never sees it.
        case notDynamic
        /// The `observe(…)` token that observed the key was released.
        case tokenReleased
        /// The `observe(…)` token that observed the key was invalidated.
        case tokenInvalidated
    }
}
