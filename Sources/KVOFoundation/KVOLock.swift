import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one lock of the runtime: a compiled program may reach KVO from several
/// threads (an `OperationQueue` does), and everything the runtime keeps lives
/// in `_KVOProcess.shared` and its engine.
///
/// Why one recursive lock for the process, not one per observed object:
/// the engine is one object whose state is process-wide (the classes, the
/// open changes between `willChange` and `didChange`, the nesting depth, the
/// printer's unfinished line), a notification reaches objects other than the
/// one changed (dependent keys, key paths through other objects, observers'
/// handlers that change more), and the event output must never tear a line.
/// Foundation's KVO on a Mac had the same shape for years (one recursive
/// `NSKeyValueObserverRegistrationLock`). Recursive, because a handler that
/// the runtime calls under the lock changes, observes and prints in turn.
///
/// Held from a change's `willChange` to its `didChange` (`enterForChange` /
/// `leaveForChange`): the engine's open changes are one stack, so another
/// thread's change must not open between them. A thread that waits for
/// another inside the runtime (`waitUntilFinished`) gives the lock up while it
/// waits (`suspended`).
///
/// Hand-rolled rather than Synchronization's `Mutex` (not recursive) or a
/// `PTHREAD_MUTEX_RECURSIVE` mutex (which cannot say how deep it is held, and
/// `suspended` must give up every level): the owner is an atomic taken by
/// compare-and-swap, so that a single-threaded program pays a load and a
/// CAS per entry, not a mutex's calls (B1 compiled: 85 instructions a set
/// with a pthread mutex). A thread that finds it held parks on a condition
/// variable, counted in `waiters` so that the holder wakes it only when one waits.
final class _KVOLock: @unchecked Sendable {
    /// The holding thread (`pthread_self`), 0 when free. Only the holder
    /// writes it while held, so a thread that reads its own id is the holder.
    private let owner = Atomic<UInt>(0)
    /// Levels held; read and written by the holder only.
    private var depth = 0
    /// Threads parked in `wait`, each holding `parking` while it counts
    /// itself and tries once more, so that a release never misses one.
    private let waiters = Atomic<Int>(0)
    private let parking: UnsafeMutablePointer<pthread_mutex_t>
    private let released: UnsafeMutablePointer<pthread_cond_t>
    /// How long a thread waits before it is told why (see `wait`).
    private static let patience: Int = 10

    init() {
        parking = .allocate(capacity: 1)
        parking.initialize(to: pthread_mutex_t())
        pthread_mutex_init(parking, nil)
        released = .allocate(capacity: 1)
        released.initialize(to: pthread_cond_t())
        pthread_cond_init(released, nil)
    }

    /// Takes one level of the lock.
    @inline(__always)
    func enter() {
        let me = UInt(pthread_self())
        if owner.load(ordering: .relaxed) == me {
            depth &+= 1
            return
        }
        if !owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged { wait(me) }
        depth = 1
    }

    /// Takes one level if no other thread holds the lock; false (and
    /// nothing taken) when another does.
    func tryEnter() -> Bool {
        let me = UInt(pthread_self())
        if owner.load(ordering: .relaxed) == me {
            depth &+= 1
            return true
        }
        guard owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged else { return false }
        depth = 1
        return true
    }

    /// Gives one level back; a thread that does not hold the lock gives
    /// nothing (a `didChangeValue` without its `willChangeValue`).
    @inline(__always)
    func leave() {
        guard owner.load(ordering: .relaxed) == UInt(pthread_self()) else { return }
        depth &-= 1
        if depth == 0 { release() }
    }

    @inline(__always)
    private func release() {
        // Sequentially consistent, with the waiter's count and retry: either
        // the waiter's retry sees the lock free or this sees the waiter.
        owner.store(0, ordering: .sequentiallyConsistent)
        if waiters.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(parking)
            pthread_cond_broadcast(released)
            pthread_mutex_unlock(parking)
        }
    }

    @inline(__always)
    func held<T>(_ body: () throws -> T) rethrows -> T {
        enter()
        defer { leave() }
        return try body()
    }

    /// Whether the current thread holds the lock.
    var isHeld: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Runs `body` (a wait for another thread) with every level this thread
    /// holds given up, and takes them all back after.
    func suspended<T>(_ body: () throws -> T) rethrows -> T {
        let me = UInt(pthread_self())
        guard owner.load(ordering: .relaxed) == me else { return try body() }
        let levels = depth
        depth = 0
        release()
        defer {
            if !owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged { wait(me) }
            depth = levels
        }
        return try body()
    }

    /// Parks until the lock is free and takes it. A thread that waits long
    /// is not left hanging in silence: the likely cause, a `willChangeValue`
    /// on one thread whose `didChangeValue` another thread was to call (the
    /// lock is held from one to the other), is said on standard error, once;
    /// the thread goes on waiting.
    private func wait(_ me: UInt) {
        pthread_mutex_lock(parking)
        waiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Self.patience
        var told = false
        while !owner.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged {
            if told {
                pthread_cond_wait(released, parking)
            } else if pthread_cond_timedwait(released, parking, &deadline) == ETIMEDOUT {
                told = true
                let advice =
                    "kvo-run: a thread has waited \(Self.patience) s for the KVO runtime, which another thread holds; "
                    + "kvo-run serialises KVO from each willChangeValue to its didChangeValue, so a willChangeValue "
                    + "whose didChangeValue another thread calls, or a handler that waits for another thread, never ends\n"
                fputs(advice, stderr)
                fflush(stderr)
            }
        }
        waiters.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(parking)
    }
}

/// A condition other threads wait for (an operation's end, its queue's
/// emptiness): set under the runtime's lock, waited for with the lock given
/// up (`_KVOLock.suspended`), since it is set on another thread.
final class _KVOCondition: @unchecked Sendable {
    private let condition = NSCondition()
    private var holds: Bool

    init(_ holds: Bool) { self.holds = holds }

    func set(_ newValue: Bool) {
        condition.lock()
        holds = newValue
        if newValue { condition.broadcast() }
        condition.unlock()
    }

    func wait() {
        _KVOProcess.shared.lock.suspended {
            condition.lock()
            while !holds { condition.wait() }
            condition.unlock()
        }
    }
}

/// Where each thread is in the program, as the rewriter marks statements
/// (`_kvoAt`): a runtime error or exception names the statement of the
/// thread that raised it. Kept per thread in a POSIX thread-specific slot,
/// so that marking a statement (every statement of a program) takes no lock;
/// every thread's marks are listed for the count of statements run.
struct _KVOMark {
    var line = 0
    var statementColumn = 0
    var callColumn = 0
    var statements = 0
}

/// The slot of each thread's marks. The main thread's are kept apart and
/// found by comparing `pthread_self()`, a few instructions, where a
/// thread-specific slot's lookup is a call of 35 (every statement of a
/// program marks itself).
struct _KVOMarks {
    let key: pthread_key_t
    let mainThread: pthread_t
    let main: UnsafeMutablePointer<_KVOMark>

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
        mainThread = pthread_self()
        main = .allocate(capacity: 1)
        main.initialize(to: _KVOMark())
        pthread_setspecific(key, main)
    }

    /// The current thread's marks; `made` hears of each new thread's, to list them.
    @inline(__always)
    func current(made: (UnsafeMutablePointer<_KVOMark>) -> Void) -> UnsafeMutablePointer<_KVOMark> {
        if pthread_self() == mainThread { return main }
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: _KVOMark.self) }
        let mark = UnsafeMutablePointer<_KVOMark>.allocate(capacity: 1)
        mark.initialize(to: _KVOMark())
        pthread_setspecific(key, mark)
        made(mark)
        return mark
    }
}
