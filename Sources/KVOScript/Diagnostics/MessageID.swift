/// Which problem a diagnostic reports: the stage that found it and the name
/// of its message case (`parser.expectedPunctuation`).
public struct MessageID: Hashable, Sendable, CustomStringConvertible {
    public let domain: String
    public let id: String

    public init(domain: String, id: String) {
        self.domain = domain
        self.id = id
    }

    public var description: String { domain + "." + id }

    /// A diagnostic whose words come from elsewhere (a compiler's output, a
    /// child process) and have no message case of their own.
    public static let freeText = MessageID(domain: "text", id: "freeText")
}
