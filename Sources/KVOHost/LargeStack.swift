#if canImport(Glibc)
import Glibc
#endif
import KVOCore

/// Runs the interpreter on a thread with a large stack, so deep (but bounded)
/// scenario recursion never meets the main thread's 8 MB limit. The one
/// large-stack runner: kvo-run's commands and the tests' in-process runs
/// (Swift Testing's worker threads may have small stacks) alike.
public enum LargeStack {
    private final class Job: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    public static let stackSize: UInt = 1 << 30

    public static func run<T>(_ body: @escaping () -> T) -> T {
        var result: T?
        let job = Job {
            StackGuard.registerCurrentThread(stackSize: stackSize, margin: 64 << 20)
            var interrupt = sigset_t()
            sigemptyset(&interrupt)
            sigaddset(&interrupt, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
            result = body()
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Int(stackSize))
        // SIGINT goes to the thread that reads input and runs the scenario
        // (which unblocks it, above), never to this one waiting in pthread_join.
        var interrupt = sigset_t(), previous = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_BLOCK, &interrupt, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let unmanaged = Unmanaged.passRetained(job)
        let created = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, unmanaged.toOpaque())
        if created == 0 {
            pthread_join(thread, nil)
        } else {
            unmanaged.release()
            job.body()
        }
        if let result { return result }
        return body()
    }
}
