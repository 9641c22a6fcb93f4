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
        var text = ""
        describe(into: &text)
        return text
    }

    /// Appends the description to `text`: one buffer, no intermediate strings
    /// (a trace of a million notifications prints a million of these).
    @inlinable
    public func describe<Sink: TextSink>(into text: inout Sink) {
        text.appendLiteral("{")
        if let indexes {
            text.appendLiteral("indexes = (")
            for (position, index) in indexes.enumerated() {
                if position > 0 { text.appendLiteral(", ") }
                text.appendInt(index)
            }
            text.appendLiteral("); ")
        }
        text.appendLiteral("kind = ")
        text.appendInt(kind.rawValue)
        if let new {
            text.appendLiteral("; new = ")
            text.appendValue(new)
        }
        if isPrior { text.appendLiteral("; notificationIsPrior = 1") }
        if let old {
            text.appendLiteral("; old = ")
            text.appendValue(old)
        }
        text.appendLiteral("}")
    }
}
