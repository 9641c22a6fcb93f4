import _KVOTestSupport
import Foundation
import Testing

/// Values that grow exponentially under an address-space limit: a runtime error, not an abort.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct MemoryLimitTests {
    typealias A = Adversarial

    // MARK: Memory

    /// Forty doublings ask for a terabyte in a handful of statements, which
    /// --max-steps cannot stop. Under a 4 GB address-space limit kvo-run
    /// should end with a runtime error, not abort in the allocator ("Fatal
    /// error: failed to allocate … bytes", signal 6) or be OOM-killed.
    @Test(
        .enabled(if: !Adversarial.underAddressSanitizer, "ulimit -v does not work with ASan"),
        arguments: [
            ("string doubling", "var s = \"x\"\nfor i in 0..<40 { s = s + s }\nprint(s.count)\n"),
            ("array doubling", "var a = [1]\nfor i in 0..<40 { a = a + a }\nprint(a.count)\n"),
            ("interpolation doubling", "var s = \"x\"\nfor i in 0..<40 { s = \"\\(s)\\(s)\" }\nprint(s.count)\n"),
        ])
    func exponentialGrowthIsARuntimeErrorNotAnAbort(_ name: String, _ source: String) throws {
        try A.check(
            source, .runtimeError, arguments: ["--max-steps", "1000"], timeout: A.largeInputTimeout,
            memoryLimitKB: 4_000_000, name)
    }
}
