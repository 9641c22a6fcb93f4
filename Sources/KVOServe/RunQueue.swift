#if canImport(Glibc)
import Glibc
#endif

/// The one thread the playground's runs happen on, and the requests waiting
/// for it.
///
/// One thread because the interpreter's modules (KVOCore to KVORun) count
/// references non-atomically in release builds (Package.swift: a third of
/// the time of a notifying set), so they may only ever run on one thread at
/// a time, statics included. The connection threads (this module, built
/// with atomic counts) parse requests and write answers; everything that
/// runs a scenario, renders a picture or reads an example happens here, in
/// arrival order. Each run is bounded by the playground's time limit, so a
/// runaway scenario delays the requests behind it by at most that, and
/// never stops the server. At most `maxWaiting` requests wait; past that a
/// request is answered 503 at once.
final class RunQueue: @unchecked Sendable {
    private let monitor = Monitor()
    private var waiting: [Job] = []
    let maxWaiting: Int

    init(maxWaiting: Int) {
        self.maxWaiting = maxWaiting
    }

    /// A request's work and, once run, its answer.
    private final class Job: @unchecked Sendable {
        let work: () -> HTTPResponse
        var answer: HTTPResponse?
        init(_ work: @escaping () -> HTTPResponse) { self.work = work }
    }

    /// Runs `work` on the runner thread and waits for its answer; nil when
    /// `maxWaiting` requests are waiting already.
    func run(_ work: @escaping () -> HTTPResponse) -> HTTPResponse? {
        let job = Job(work)
        monitor.lock()
        defer { monitor.unlock() }
        guard waiting.count < maxWaiting else { return nil }
        waiting.append(job)
        monitor.broadcast()
        while job.answer == nil { monitor.wait() }
        return job.answer
    }

    /// The runner thread's loop (on a large stack: `LargeStack.run`): runs
    /// each job in turn, for ever.
    func serve() -> Never {
        while true {
            monitor.lock()
            while waiting.isEmpty { monitor.wait() }
            let job = waiting.removeFirst()
            monitor.unlock()
            let answer = job.work()
            monitor.lock()
            job.answer = answer
            monitor.broadcast()
            monitor.unlock()
        }
    }
}

/// A mutex and its condition (POSIX): the queue's waits.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
