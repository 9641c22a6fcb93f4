/// An observance as an explanation names it: `acct[1]` (its place in its
/// object's observation info, nil once removed), observer, key path, context.
public struct ExplainedObservance: Equatable, Sendable {
    public let object: String
    public let index: Int?
    public let observer: String
    public let keyPath: String
    public let options: [String]
    public let context: String?
    /// A forwarding observance: the root observance it serves (`person[0]`).
    public let forwarding: String?

    public init(
        object: String, index: Int?, observer: String, keyPath: String, options: [String],
        context: String?, forwarding: String?
    ) {
        self.object = object
        self.index = index
        self.observer = observer
        self.keyPath = keyPath
        self.options = options
        self.context = context
        self.forwarding = forwarding
    }

    /// `acct[1]`, or `acct[-]` once it is no longer registered.
    public var label: String { "\(object)[\(index.map(String.init) ?? "-")]" }
}
