/// A declared class, for the REPL's `:classes`.
public struct ClassSummary: Equatable, Sendable {
    public struct Property: Equatable, Sendable {
        public let name: String
        /// The declared type as the language writes it (`Int`, `[Account]`).
        public let type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    public let name: String
    /// `NSObject` for a class declared without one.
    public let superclass: String
    public let properties: [Property]

    public init(name: String, superclass: String, properties: [Property]) {
        self.name = name
        self.superclass = superclass
        self.properties = properties
    }
}
