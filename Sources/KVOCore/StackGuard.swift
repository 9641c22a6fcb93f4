/// Keeps recursion within the native stack. `--max-depth` bounds nesting in
/// levels, but what a level costs depends on the scenario (a handler can sit
/// in deeply nested blocks), so the interpreter also checks the stack itself
/// and stops with a runtime error while there is still room to report it.
public enum StackGuard {
    /// The lowest stack address allowed; 0 disables the check.
    nonisolated(unsafe) public static var limit: UInt = 0

    /// Sets the limit for the current thread, whose stack is `size` bytes,
    /// keeping `margin` bytes in reserve.
    public static func install(stackSize size: UInt, margin: UInt) {
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        limit = here > size ? here - size + margin : 0
    }

    @inlinable @inline(__always)
    public static func check(_ what: @autoclosure () -> String) throws {
        guard limit != 0 else { return }
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if here < limit {
            throw ScriptError.runtime("\(what()) nested deeper than the maximum depth the interpreter's stack allows; lower --max-depth or simplify the recursion")
        }
    }
}
