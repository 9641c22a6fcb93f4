/// The pending stack as a step shows it: its top `KVORuntime.explainedListLimit`
/// changes (`acct.balance`), oldest first so the top is last, and how many
/// changes it holds in all. Printing the whole stack at every step made 20,000
/// nested `willChangeValue` calls print gigabytes.
public struct ExplainedStack: Equatable, Sendable {
    public let top: [String]
    public let count: Int

    public init(top: [String], count: Int) {
        self.top = top
        self.count = count
    }

    /// Changes below the ones shown.
    public var notShown: Int { count - top.count }
    public var isEmpty: Bool { count == 0 }
}
