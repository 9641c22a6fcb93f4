import KVOCore

/// `--explain` in JSON Lines: one `explain` event per step, its `step` naming
/// the kind of step and the other fields structured (docs/explain.md).
extension JSONFormat {
    public static func explain(_ step: Explanation, depth: Int) -> String {
        var pairs: [(String, String)] = [("event", string("explain"))]
        func add(_ key: String, _ value: String) { pairs.append((key, value)) }
        func observances(_ list: [ExplainedObservance]) -> String {
            "[" + list.map(encode).joined(separator: ",") + "]"
        }
        func strings(_ list: [String]) -> String { "[" + list.map(string).joined(separator: ",") + "]" }
        /// The pending stack, as `stack` (its top entries) and `stackCount`.
        func addStack(_ stack: ExplainedStack) {
            add("stack", strings(stack.top))
            add("stackCount", String(stack.count))
        }
        switch step {
        case .registered(let observance, let forwards):
            add("step", string("registered"))
            add("observance", encode(observance))
            add("forwards", observances(forwards))
        case .initial(let observance):
            add("step", string("initial"))
            add("observance", encode(observance))
        case .removed(let observance, let candidates, let anyContext, let forwards):
            add("step", string("removed"))
            add("observance", encode(observance))
            add("candidates", String(candidates))
            add("anyContext", anyContext ? "true" : "false")
            add("forwards", observances(forwards))
        case .released(let object, let list, let count):
            add("step", string("released"))
            add("object", string(object))
            add("observances", observances(list))
            add("count", String(count))
        case .changeStarts(let object, let key, let kind, let automatic):
            add("step", string("change"))
            add("object", string(object))
            add("key", string(key))
            add("kind", String(kind.rawValue))
            add("automatic", automatic ? "true" : "false")
        case .recorded(let observance, let route, let old):
            add("step", string("pending"))
            add("observance", encode(observance))
            switch route {
            case .direct:
                add("route", string("direct"))
            case .dependent(let chain):
                add("route", string("dependent"))
                add("chain", strings(chain))
            case .forwarded(let via):
                add("route", string("keyPath"))
                add("via", encode(via))
            }
            add("old", old.map(string) ?? "null")
        case .alreadyRecorded(let observance):
            add("step", string("alreadyPending"))
            add("observance", encode(observance))
        case .prior(let observance):
            add("step", string("prior"))
            add("observance", encode(observance))
        case .pendingStack(let stack):
            add("step", string("stack"))
            addStack(stack)
        case .didStarts(let object, let key, let order, let count, let stack):
            add("step", string("did"))
            add("object", string(object))
            add("key", string(key))
            add("order", observances(order))
            add("count", String(count))
            addStack(stack)
        case .delivering(let observance, let new, let identical):
            add("step", string("deliver"))
            add("observance", encode(observance))
            add("new", new.map(string) ?? "null")
            add("identical", identical ? "true" : "false")
        case .skipped(let observance):
            add("step", string("skipped"))
            add("observance", encode(observance))
            add("reason", string("removedMidChange"))
        case .addedMidChange(let observance):
            add("step", string("skipped"))
            add("observance", encode(observance))
            add("reason", string("addedMidChange"))
        case .forwardsMoved(let root, let from, let to):
            add("step", string("forwardsMoved"))
            add("observance", encode(root))
            add("from", observances(from))
            add("to", observances(to))
        case .silent(let object, let key, let reason):
            add("step", string("silent"))
            add("object", string(object))
            add("key", string(key))
            add("reason", string(reason.rawValue))
        case .notListed(let count):
            add("step", string("notListed"))
            add("count", String(count))
        case .observationEnded(let object, let keyPath, let released):
            add("step", string(released ? "tokenReleased" : "tokenInvalidated"))
            add("object", string(object))
            add("keyPath", string(keyPath))
        case .classChanged(let object, let from, let to, let swizzled):
            add("step", string(swizzled ? "swizzled" : "unswizzled"))
            add("object", string(object))
            add("from", string(from))
            add("to", string(to))
        }
        add("depth", String(depth))
        return object(pairs)
    }

    /// `{"id":"acct[1]","object":"acct","observer":"bob","keyPath":"balance",…}`.
    public static func encode(_ observance: ExplainedObservance) -> String {
        object([
            ("id", string(observance.label)), ("object", string(observance.object)),
            ("index", observance.index.map(String.init) ?? "null"), ("observer", string(observance.observer)),
            ("keyPath", string(observance.keyPath)),
            ("options", "[" + observance.options.map(string).joined(separator: ",") + "]"),
            ("context", observance.context.map(string) ?? "null"),
            ("forwarding", observance.forwarding.map(string) ?? "null"),
        ])
    }
}
