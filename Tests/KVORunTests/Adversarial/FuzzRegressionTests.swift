import _KVOTestSupport
import Foundation
import Testing

/// Every input the fuzzer once crashed kvo-run with (Fuzz/regressions).
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct FuzzRegressionTests {
    typealias A = Adversarial

    // MARK: Fuzz regressions

    /// Every input libFuzzer found (Fuzz/regressions, see `make fuzz`) checks or
    /// fails cleanly.
    @Test func fuzzRegressions() throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: A.regressionsDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".kvo") }.sorted()
        for name in names {
            let bytes = Array(try Data(contentsOf: A.regressionsDirectory.appendingPathComponent(name)))
            for arguments in [
                [], ["--keep-going", "--max-steps", "5000", "--max-depth", "50"], ["--format", "json", "--keep-going"],
            ] {
                let result = try A.run(bytes, arguments: arguments)
                #expect(!result.crashed, "\(name) \(arguments): \(result)")
                #expect([0, 1, 2].contains(result.status), "\(name) \(arguments): \(result)")
            }
        }
    }
}
