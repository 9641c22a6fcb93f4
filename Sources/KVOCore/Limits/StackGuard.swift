#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps recursion within the native stack. The maximum depth bounds nesting
/// in levels, but what a level costs depends on the scenario (a handler can
/// sit in deeply nested blocks), so the interpreter also checks the stack
/// itself and stops with a runtime error while there is still room to report
/// it. Each runtime holds the guard of the thread it runs on.
public struct StackGuard: Sendable {
    /// The lowest stack address allowed; 0 disables the check.
    public let limit: UInt

    /// No check: for runs on a thread whose stack size is unknown.
    public static let unchecked = StackGuard(limit: 0)

    public init(limit: UInt) { self.limit = limit }

    /// Registers the guard of the current thread, whose stack is `size`
    /// bytes, keeping `margin` bytes in reserve: called first thing by the
    /// code that created the thread. A stack belongs to its thread, so the
    /// guard is kept per thread, not per process.
    public static func registerCurrentThread(stackSize size: UInt, margin: UInt) {
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let limit = here > size ? here - size + margin : 0
        threadLimit.value = Int(bitPattern: limit)
    }

    /// The guard registered for the current thread, or `unchecked`.
    public static var currentThread: StackGuard {
        StackGuard(limit: UInt(bitPattern: threadLimit.value))
    }

    private static let threadLimit = ThreadLocalInt()

    @inlinable @inline(__always)
    public func check(_ what: @autoclosure () -> String) throws {
        guard limit != 0 else { return }
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if here < limit {
            throw ScriptError.runtime(
                RuntimeFailure(
                    "\(what()) nested deeper than the maximum depth the interpreter's stack allows", limit: .stack))
        }
    }
}
