/// The keys whose changes notify an observer of one key.
public struct KeyDependencies {
    /// The key, then the first key of each affecting path, without repeats;
    /// nil when the closure was too large to store, and
    /// `ClassInfo.affects(_:_:)` answers instead.
    public let triggers: [String]?
    /// The affecting key paths through a relationship, transitively: the
    /// forwarding observances an observer of the key needs.
    public let relationshipPaths: [[String]]
    /// Some affecting key path goes through a relationship, so a change along
    /// it must re-register forwarding observances.
    public var throughRelationship: Bool { !relationshipPaths.isEmpty }

    init(key: String, closure: [[String]]) {
        var triggers = [key]
        var seen: Set<String> = [key]
        for affecting in closure where seen.insert(affecting[0]).inserted { triggers.append(affecting[0]) }
        self.triggers = triggers
        self.relationshipPaths = closure.filter { $0.count > 1 }
    }

    init(key: String, relationshipPaths: [[String]]) {
        self.triggers = nil
        self.relationshipPaths = relationshipPaths
    }
}
