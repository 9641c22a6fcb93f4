import Testing

// A target of its own, depending on nothing but Testing: KVOCoreTests needs
// the trait too, and must not link the language or the tool to get it.

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
    /// Runs the test only in an optimised build, and says why: a case that
    /// drives kvo-run to a limit only release frames survive (releasing a
    /// 10-million-deep array), or a hostile input given the time an optimised
    /// kvo-run needs, where a debug build would fail for its own frames or
    /// speed, not for kvo-run. `make test` (release) runs it.
    public static func releaseOnly(_ why: Comment) -> Self {
        .enabled(if: isOptimisedBuild, why)
    }
}
