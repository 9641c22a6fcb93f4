import Synchronization

/// Asks a running scenario to stop: Ctrl-C (set from a signal handler, on
/// another thread than the one running the scenario), a time limit that
/// passed, or output that can no longer be written. The machine checks it at every statement and every
/// chunk of work inside one.
///
/// Each session has its own (`Session.stop`), handed to its output
/// (`ScriptOutput.connect(stop:)`): output failing in one run must not stop
/// another running on another thread. The REPL's interrupt handler reaches
/// its session's flag through `ReadlineInput`.
public final class StopFlag: Sendable {
    public enum Reason: Int32, Sendable {
        case interrupt = 1
        /// Output cannot be written (or an in-memory capture is full).
        case outputFailed = 2
        /// The run's time limit passed (`--timeout`, `kvo-run serve`'s
        /// limit): set by the host's `RunWatchdog`, on another thread.
        case timeLimit = 3
    }

    private let raw = Atomic<Int32>(0)

    public init() {}

    /// Relaxed atomics: a lock-free store is safe in a signal handler, and
    /// the flag orders nothing else.
    public func request(_ reason: Reason) { raw.store(reason.rawValue, ordering: .relaxed) }

    public func clear() { raw.store(0, ordering: .relaxed) }

    /// What was requested, if anything.
    public var pending: Reason? { Reason(rawValue: raw.load(ordering: .relaxed)) }

    /// One relaxed load: the statement loop's check.
    @inline(__always)
    var isSet: Bool { raw.load(ordering: .relaxed) != 0 }
}
