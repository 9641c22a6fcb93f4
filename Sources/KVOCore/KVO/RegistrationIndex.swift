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
