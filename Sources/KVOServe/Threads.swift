#if canImport(Glibc)
import Glibc
#endif

/// Detached POSIX threads: the server's accepting thread and a thread per
/// connection.
enum Threads {
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a detached thread; false when none could be made.
    static func start(_ body: @escaping () -> Void) -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body))
        let created = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, context.toOpaque())
        guard created == 0 else {
            context.release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
