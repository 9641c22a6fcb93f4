/// An object a top-level variable holds, for the REPL's `:objects`.
public struct ObjectSummary: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        case released
        case notObserved
        case observed(observances: Int)
    }

    public let name: String
    /// The object as `print` shows it (`<Account: acct>`).
    public let description: String
    public let state: State

    public init(name: String, description: String, state: State) {
        self.name = name
        self.description = description
        self.state = state
    }
}
