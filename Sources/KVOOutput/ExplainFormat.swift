import KVOCore

/// `--explain` in text: each step one `# ` line (a few take more), indented
/// with the trace. The wording is pinned by docs/explain.md and the goldens
/// under scenarios/explain/.
public enum ExplainFormat {
    public static func render(_ step: Explanation, depth: Int) -> String {
        let pad = TextFormat.indent(depth)
        return lines(step).map { pad + "# " + ControlCharacters.escaping($0) + "\n" }.joined()
    }

    /// The lines of one step, without `# ` and indentation.
    public static func lines(_ step: Explanation) -> [String] {
        switch step {
        case .registered(let observance, let forwards):
            return [
                "addObserver: \(observance.label) registered: \(observance.observer) observes "
                    + "\(observance.object).\(observance.keyPath), \(options(observance)), \(context(observance))"
            ]
                + forwards.map { forward in
                    "  forwarding observance \(forward.label) watches \(forward.object).\(forward.keyPath) "
                        + "for \(observance.label)"
                }
        case .initial(let observance):
            return [
                ".initial: \(observance.observer) is told now, inside addObserver, before the registration "
                    + "takes effect"
            ]
        case .removed(let observance, let candidates, let anyContext, let forwards):
            let whose =
                "\(observance.observer)'s registration\(candidates == 1 ? "" : "s") for "
                + "\(observance.object).\(observance.keyPath)"
            var first: String
            if anyContext {
                first =
                    candidates == 1
                    ? "removeObserver without context: \(observance.label) (\(context(observance))) is \(whose), "
                        + "the only one: removed"
                    : "removeObserver without context: \(observance.observer) has \(candidates) registrations for "
                        + "\(observance.object).\(observance.keyPath), of any context; the most recent, "
                        + "\(observance.label) (\(context(observance))), is removed"
            } else {
                first =
                    candidates == 1
                    ? "removeObserver: \(observance.label) removed (\(context(observance)))"
                    : "removeObserver: \(observance.label) removed, the most recent of \(candidates) \(whose) "
                        + "with \(context(observance))"
            }
            if observance.index == nil { first += " (an identical registration stays)" }
            return [first] + forwards.map { "  its forwarding observance \($0.label) on \($0.object) goes too" }
        case .released(let object, let observances, let total):
            if total == 0 { return ["release(\(object)): nobody observes \(object); nothing to unregister"] }
            let count = total == 1 ? "its observance is" : "its \(total) observances are"
            return [
                "release(\(object)): \(count) unregistered silently, as macOS does since 10.13: "
                    + observances.map(\.label).joined(separator: ", ")
            ]
        case .changeStarts(let object, let key, let kind, let automatic):
            let how =
                automatic
                ? "automatic: KVO wraps the setter in willChange/didChange"
                : "manual: the scenario called willChange"
            return ["change of \(object).\(key) (\(kindName(kind))), \(how)"]
        case .recorded(let observance, let route, let old):
            var line = "will: \(describe(observance)) is pending"
            switch route {
            case .direct: break
            case .dependent(let chain): line += ", through dependent keys " + chain.joined(separator: " → ")
            case .forwarded(let via): line += ", through the key path: forwarding observance \(via.label)"
            }
            let asked = observance.options.contains("old")
            line += old.map { "; old = \($0) read now" } ?? (asked ? "" : "; no old asked")
            return [line]
        case .alreadyRecorded(let observance):
            return ["will: \(describe(observance)) is already pending for this change: told once"]
        case .prior(let observance):
            return ["will: \(describe(observance)) asked for .prior: told now, before the change"]
        case .pendingStack(let stack):
            return ["pending stack (top last): " + list(stack)]
        case .didStarts(let object, let key, let order, let count, let stack):
            var line = "did: \(object).\(key) popped from the pending stack; "
            switch count {
            case 0: line += "nothing pending"
            case 1: line += "1 pending notification: " + order.map(\.label).joined(separator: ", ")
            default:
                line +=
                    "\(count) pending notifications, newest registration first (the did phase pops "
                    + "them from the most recent back): " + order.map(\.label).joined(separator: ", ")
            }
            if !stack.isEmpty { line += "; still pending: " + list(stack) }
            return [line]
        case .delivering(let observance, let new, let identical):
            let check =
                identical
                ? "was removed, but an identical registration is registered"
                : "is still registered"
            let read = new.map { "; new = \($0) read now" } ?? ""
            return ["did: \(describe(observance)) \(check): delivered\(read)"]
        case .skipped(let observance):
            return ["did: \(describe(observance)) skipped: removed since the will phase"]
        case .addedMidChange(let observance):
            return ["did: \(describe(observance)) not told: registered after this change's will phase"]
        case .forwardsMoved(let root, let from, let to):
            let old = from.isEmpty ? "nothing" : from.map(\.object).joined(separator: ", ")
            let new = to.isEmpty ? "nothing (the path ends in nil)" : to.map(\.label).joined(separator: ", ")
            return [
                "key path \(root.object).\(root.keyPath) of \(root.label): an object along it was replaced; "
                    + "its forwarding observances move from \(old) to \(new)"
            ]
        case .silent(let object, let key, let reason):
            return [silent(object, key, reason)]
        case .notListed(let count):
            return ["  … and \(count) more not listed"]
        case .observationEnded(let object, let keyPath, let released):
            return [
                released
                    ? "token of observe(\\.\(keyPath)) on \(object) released (nothing holds it any more): "
                        + "its observer is removed"
                    : "token of observe(\\.\(keyPath)) on \(object) invalidated: its observer is removed"
            ]
        case .classChanged(let object, let from, let to, let swizzled):
            return swizzled
                ? ["isa-swizzle: \(object)'s class \(from) is replaced by the generated subclass \(to)"]
                : ["isa-swizzle undone: \(object)'s class is \(to) again (its last observance is gone)"]
        }
    }

    static func silent(_ object: String, _ key: String, _ reason: Explanation.SilentReason) -> String {
        switch reason {
        case .noObservers:
            return "\(object).\(key) set: nobody is told, nobody observes \(object)"
        case .noObserversOfKey:
            return "\(object).\(key): nobody is told, no observance of \(object) depends on \(key)"
        case .manual:
            return "\(object).\(key) set: nobody is told, \(key) is @manual (call willChangeValue/didChangeValue)"
        case .notAutomatic:
            return "\(object).\(key) set: nobody is told, automaticallyNotifiesObservers(forKey: \"\(key)\") "
                + "returns false"
        case .ivarWrite:
            return "\(object).\(key) written: nobody is told, an instance variable write runs no setter"
        case .unpairedDidChange:
            return "didChange of \(object).\(key): nobody is told, no willChange of \(key) is pending"
        case .notDynamic:
            return "\(object).\(key) set: nobody is told, \(key) is not @objc dynamic: "
                + "the assignment runs its setter directly, KVO's subclass never sees it"
        case .tokenReleased:
            return "\(object).\(key) set: nobody is told, the observe(\\.\(key)) token was released"
        case .tokenInvalidated:
            return "\(object).\(key) set: nobody is told, the observe(\\.\(key)) token was invalidated"
        }
    }

    /// `acct[1] (bob observes balance)`.
    static func describe(_ observance: ExplainedObservance) -> String {
        "\(observance.label) (\(observance.observer) observes \(observance.keyPath))"
    }

    static func options(_ observance: ExplainedObservance) -> String {
        observance.options.isEmpty ? "no options" : "options [" + observance.options.joined(separator: ", ") + "]"
    }

    static func context(_ observance: ExplainedObservance) -> String {
        observance.context.map { "context \($0)" } ?? "no context"
    }

    static func kindName(_ kind: Change.Kind) -> String {
        switch kind {
        case .setting: return "kind 1, setting"
        case .insertion: return "kind 2, insertion"
        case .removal: return "kind 3, removal"
        case .replacement: return "kind 4, replacement"
        }
    }

    /// `[acct.balance, acct.fee]`, top last; a stack deeper than what is
    /// shown starts with how many changes lie below:
    /// `[… 19984 more below, a.x, a.x]`.
    static func list(_ stack: ExplainedStack) -> String {
        let below = stack.notShown > 0 ? ["… \(stack.notShown) more below"] : []
        return "[" + (below + stack.top).joined(separator: ", ") + "]"
    }
}
