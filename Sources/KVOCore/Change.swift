/// A change dictionary (NSKeyValueChangeKey…), with only the keys that are present.
public struct Change: Equatable {
    public enum Kind: Int, Sendable {
        case setting = 1, insertion = 2, removal = 3, replacement = 4
    }

    public var kind: Kind
    public var indexes: [Int]?
    public var new: Value?
    public var old: Value?
    public var isPrior: Bool

    public init(kind: Kind, indexes: [Int]? = nil, new: Value? = nil, old: Value? = nil, isPrior: Bool = false) {
        self.kind = kind
        self.indexes = indexes
        self.new = new
        self.old = old
        self.isPrior = isPrior
    }

    /// `{indexes = (1); kind = 2; new = (…)}`: present keys in Apple's key order.
    public var description: String {
        var parts: [String] = []
        if let indexes {
            parts.append("indexes = (" + indexes.map(String.init).joined(separator: ", ") + ")")
        }
        parts.append("kind = \(kind.rawValue)")
        if let new { parts.append("new = \(new.collectionDescription)") }
        if isPrior { parts.append("notificationIsPrior = 1") }
        if let old { parts.append("old = \(old.collectionDescription)") }
        return "{" + parts.joined(separator: "; ") + "}"
    }
}
