/// What `error.domain`, `error.code` and `error.localizedDescription` read.
public struct NSErrorFields: Sendable {
    public var domain: String
    public var code: Int?
    /// `NSLocalizedDescriptionKey`'s value, nil without one.
    public var description: String?
    public init(domain: String, code: Int?, description: String?) {
        self.domain = domain
        self.code = code
        self.description = description
    }
}
