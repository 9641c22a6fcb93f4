#if canImport(Glibc)
import Glibc
#endif
import KVOScript

/// Stops a scenario when its time is up (`--timeout`, `kvo-run serve`'s
/// limit): one thread that sleeps until the armed deadline and then sets the
/// run's stop flag to `.timeLimit`, which the machine checks at every
/// statement and every chunk of work. A thread rather than a clock read in
/// the statement loop: the loop's only check stays one relaxed load.
///
/// This module counts references non-atomically in release builds
/// (Package.swift), so the thread touches no Swift object but the flag, and
/// that one without retaining it: its state is a plain C block (a mutex, a
/// condition, the deadline) behind a pointer, and the flag is held unretained
/// from `arm` to `disarm`, which the caller pairs around a run the flag
/// outlives.
public final class RunWatchdog: @unchecked Sendable {
    private struct Shared {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        /// When the armed run must stop (CLOCK_MONOTONIC), and its flag.
        var deadline = timespec()
        var flag: Unmanaged<StopFlag>?
        var quit = false
    }

    private let shared: UnsafeMutablePointer<Shared>
    private var thread = pthread_t()
    private let started: Bool

    public init() {
        shared = .allocate(capacity: 1)
        shared.initialize(to: Shared())
        pthread_mutex_init(&shared.pointee.mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&shared.pointee.condition, &attributes)
        pthread_condattr_destroy(&attributes)
        started =
            pthread_create(
                &thread, nil,
                { raw in
                    guard let raw else { return nil }
                    RunWatchdog.watch(raw.assumingMemoryBound(to: Shared.self))
                    return nil
                }, UnsafeMutableRawPointer(shared)) == 0
    }

    deinit {
        pthread_mutex_lock(&shared.pointee.mutex)
        shared.pointee.quit = true
        pthread_cond_signal(&shared.pointee.condition)
        pthread_mutex_unlock(&shared.pointee.mutex)
        if started { pthread_join(thread, nil) }
        pthread_cond_destroy(&shared.pointee.condition)
        pthread_mutex_destroy(&shared.pointee.mutex)
        shared.deinitialize(count: 1)
        shared.deallocate()
    }

    /// From now, `seconds` until `flag` is asked to stop for `.timeLimit`,
    /// unless `disarm()` comes first. `flag` must outlive the next `disarm()`.
    /// False when the watchdog's thread could not be started (the run then
    /// has no time limit, and the caller says so).
    @discardableResult
    public func arm(seconds: Double, flag: StopFlag) -> Bool {
        guard started else { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        // Clamped: a limit of 1e300 seconds is "never" without overflowing.
        let whole = min(max(seconds, 0), 1e9)
        var deadline = now
        deadline.tv_sec += Int(whole)
        deadline.tv_nsec += Int((whole - whole.rounded(.down)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(&shared.pointee.mutex)
        shared.pointee.deadline = deadline
        shared.pointee.flag = .passUnretained(flag)
        pthread_cond_signal(&shared.pointee.condition)
        pthread_mutex_unlock(&shared.pointee.mutex)
        return true
    }

    /// The run ended: its flag is no longer touched.
    public func disarm() {
        pthread_mutex_lock(&shared.pointee.mutex)
        shared.pointee.flag = nil
        pthread_cond_signal(&shared.pointee.condition)
        pthread_mutex_unlock(&shared.pointee.mutex)
    }

    /// The thread: waits for an armed deadline, and stops the run when it
    /// passes while still armed.
    private static func watch(_ shared: UnsafeMutablePointer<Shared>) {
        pthread_mutex_lock(&shared.pointee.mutex)
        while !shared.pointee.quit {
            guard let flag = shared.pointee.flag else {
                pthread_cond_wait(&shared.pointee.condition, &shared.pointee.mutex)
                continue
            }
            var deadline = shared.pointee.deadline
            let waited = pthread_cond_timedwait(&shared.pointee.condition, &shared.pointee.mutex, &deadline)
            // Woken early (armed anew, disarmed, quit): look again.
            guard waited == ETIMEDOUT, shared.pointee.flag?.toOpaque() == flag.toOpaque() else { continue }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let due = shared.pointee.deadline
            guard now.tv_sec > due.tv_sec || (now.tv_sec == due.tv_sec && now.tv_nsec >= due.tv_nsec) else {
                continue
            }
            flag._withUnsafeGuaranteedRef { $0.request(.timeLimit) }
            shared.pointee.flag = nil
        }
        pthread_mutex_unlock(&shared.pointee.mutex)
    }
}
