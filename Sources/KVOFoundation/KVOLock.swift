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
/// Hand-rolled over a plain `pthread_mutex_t` rather than Synchronization's
/// `Mutex` (not recursive) or a `PTHREAD_MUTEX_RECURSIVE` mutex (which cannot
/// say how deep it is held, and `suspended` must give up every level): the
/// owner is an atomic so that a thread asks "is it mine?" without taking the
/// mutex, which is all a single-threaded program ever pays after its first
/// entry.
final class _KVOLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The holding thread (`pthread_self`), 0 when free. Only the holder
    /// writes it while held, so a thread that reads its own id is the holder.
    private let owner = Atomic<UInt>(0)
    /// Levels held; read and written by the holder only.
    private var depth = 0
    /// How long a thread waits before it is told why (see `wait`).
    private static let patience: Int = 10

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// Takes one level of the lock.
    @inline(__always)
    func enter() {
        let me = UInt(pthread_self())
        if owner.load(ordering: .relaxed) == me {
            depth &+= 1
            return
        }
        wait(me)
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
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        owner.store(me, ordering: .relaxed)
        depth = 1
        return true
    }

    /// Gives one level back; a thread that does not hold the lock gives
    /// nothing (a `didChangeValue` without its `willChangeValue`).
    @inline(__always)
    func leave() {
        guard owner.load(ordering: .relaxed) == UInt(pthread_self()) else { return }
        depth &-= 1
        if depth == 0 {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
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
        owner.store(0, ordering: .relaxed)
        pthread_mutex_unlock(mutex)
        defer {
            wait(me)
            depth = levels
        }
        return try body()
    }

    /// Takes the mutex. A thread that waits long is not left hanging in
    /// silence: the likely cause, a `willChangeValue` on one thread whose
    /// `didChangeValue` another thread was to call (the lock is held from one
    /// to the other), is said on standard error, once; the thread goes on waiting.
    private func wait(_ me: UInt) {
        if pthread_mutex_trylock(mutex) != 0 {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += Self.patience
            if pthread_mutex_timedlock(mutex, &deadline) != 0 {
                let advice =
                    "kvo-run: a thread has waited \(Self.patience) s for the KVO runtime, which another thread holds; "
                    + "kvo-run serialises KVO from each willChangeValue to its didChangeValue, so a willChangeValue "
                    + "whose didChangeValue another thread calls, or a handler that waits for another thread, never ends\n"
                fputs(advice, stderr)
                fflush(stderr)
                pthread_mutex_lock(mutex)
            }
        }
        owner.store(me, ordering: .relaxed)
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

final class _KVOMarks: @unchecked Sendable {
    let key: pthread_key_t
    private let lock: _KVOLock
    /// Every thread's marks (never freed: a few bytes a thread, and pool
    /// threads are reused), guarded by the runtime lock.
    private var all: [UnsafeMutablePointer<_KVOMark>] = []

    init(lock: _KVOLock) {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
        self.lock = lock
    }

    /// The current thread's marks.
    @inline(__always)
    var current: UnsafeMutablePointer<_KVOMark> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: _KVOMark.self) }
        return make()
    }

    private func make() -> UnsafeMutablePointer<_KVOMark> {
        let mark = UnsafeMutablePointer<_KVOMark>.allocate(capacity: 1)
        mark.initialize(to: _KVOMark())
        pthread_setspecific(key, mark)
        lock.held { all.append(mark) }
        return mark
    }

    /// Statements run by every thread so far.
    var statements: Int {
        lock.held { all.reduce(0) { $0 &+ $1.pointee.statements } }
    }
}
