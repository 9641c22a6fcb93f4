import KVOCore

/// How a scenario runs: the limits, and what happens after a failure.
/// (How its output looks is the output's business: KVORun's `EventRenderer`.)
public struct RunOptions: Sendable {
    public var keepGoing = false
    public var maxDepth = KVORuntime.defaultMaxDepth
    public var maxSteps = Int.max
    /// Notifications are counted, not reported (`--quiet`).
    public var quiet = false
    /// Each step of the KVO machinery is reported too (`--explain`).
    public var explain = false
    /// Releasing an observed object raises (`--legacy-dealloc`).
    public var legacyDealloc = false
    public init() {}
}
