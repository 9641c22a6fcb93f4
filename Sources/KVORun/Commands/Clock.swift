#if canImport(Glibc)
import Glibc
#endif

enum Clock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func format(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000 * 10).rounded() / 10
        return "\(milliseconds) ms"
    }
}
