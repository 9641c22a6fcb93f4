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

    /// Live registrations (the invariant checks count them).
    var liveCount: Int { (first == nil ? 0 : 1) + (more?.live ?? 0) }

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
