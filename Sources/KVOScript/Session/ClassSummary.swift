/// A declared class, for the REPL's `:classes`.
public struct ClassSummary: Equatable, Sendable {
    public struct Property: Equatable, Sendable {
        public let name: String
        /// The declared type as the language writes it (`Int`, `[Account]`).
        public let type: String
    }

    public let name: String
    /// `NSObject` for a class declared without one.
    public let superclass: String
    public let properties: [Property]
}
