@preconcurrency import CReadline
import KVOCore
import KVOScript
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The REPL's terminal state, which readline's C callbacks and the SIGINT
/// handler reach through globals (they cannot capture Swift context). Only
/// the thread that reads input and runs entries touches it: SIGINT is blocked
/// on every other thread (`LargeStack.run`). The two flags the signal handler
/// shares are atomics all the same.
enum TerminalState {
    /// What Tab completes from (`ReadlineInput.useCompletion`).
    nonisolated(unsafe) static var completion: (any CompletionSource)?
    nonisolated(unsafe) static var candidates: [String] = []
    nonisolated(unsafe) static var nextCandidate = 0
    /// readline is waiting for a line: Ctrl-C clears it rather than interrupting.
    static let reading = Atomic<Bool>(false)
    /// Ctrl-C was pressed while typing: drop the entry being typed.
    static let abandonEntry = Atomic<Bool>(false)
    /// What readline's line handler has been given, while it waits for a line.
    nonisolated(unsafe) static var lineRead = LineRead.waiting
    /// The SIGINT handler writes a byte here so that a `poll` waiting for a
    /// key wakes up, whenever the signal comes (the self-pipe trick).
    nonisolated(unsafe) static var wakeUp: (read: Int32, write: Int32) = (-1, -1)
    /// The stop flag of the REPL's session (`Runner.run` gives it to the
    /// session), which the SIGINT handler sets while an entry runs: a
    /// signal handler is a C function with no context, so it reaches the
    /// flag through a global, an immutable one (an atomic, no reference
    /// counted on the signal's path).
    static let interrupt = StopFlag()

    enum LineRead {
        case waiting
        case line(String)
        case endOfInput
    }
}
