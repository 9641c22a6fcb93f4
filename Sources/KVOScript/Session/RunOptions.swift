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
    /// The time limit the host enforces (by setting the stop flag's
    /// `.timeLimit`), for the message that stops the run: its seconds, and
    /// what set it (`--timeout`).
    public var timeLimit: TimeLimit?
    public init() {}

    public struct TimeLimit: Sendable, Equatable {
        public var seconds: Double
        public var setBy: String
        public init(seconds: Double, setBy: String) {
            self.seconds = seconds
            self.setBy = setBy
        }
    }
}
