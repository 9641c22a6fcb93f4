import Testing

/// True when the tests, and the kvo-run built beside them, are optimised
/// (`swift test -c release`, as `make test` runs them); false in a plain
/// debug `swift test`.
public let isOptimisedBuild: Bool = {
    #if DEBUG
    return false
    #else
    return true
    #endif
}()

extension Trait where Self == ConditionTrait {
    /// Runs the test only in an optimised build, and says why: cases that
    /// drive kvo-run to its limits (100,000-deep recursion, 10-million-deep
    /// arrays, linear-time checks on a million levels) need release frames and
    /// speed; a debug build's larger frames and extra ARC temporaries run out
    /// of stack or time first, which would be a failure of the build, not of
    /// kvo-run. `make test` runs them.
    public static func releaseOnly(_ why: Comment) -> Self {
        .enabled(if: isOptimisedBuild, why)
    }
}
