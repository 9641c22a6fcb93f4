import _KVOTestSupport
import Foundation
import Testing

/// Infinite loops stopped by --max-steps.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct StepLimitTests {
    typealias A = Adversarial

    // MARK: --max-steps on infinite loops

    @Test(arguments: [
        "while true { }",
        "var i = 0\nwhile true { i = i + 1 }",
        "for i in 0...9223372036854775807 { }",
        "for x in [1, 2] { for i in 0...9223372036854775807 { } }",
        "func f() { while true { } }\nf()",
        "while true { do { while true { } } catch { } }",
        "class A { var x: Int = 0\n    func observeValue(keyPath, object, change, context) { while true { } } }\nlet a = A()\na.addObserver(a, forKeyPath: \"x\")\na.x = 1",
        "class A { var x: Int = 0\n    func observeValue(keyPath, object, change, context) { x = x + 1 } }\nlet a = A()\na.addObserver(a, forKeyPath: \"x\")\nwhile true { a.x = 0 }",
        "var a = [1]\nwhile true { a.append(1) }",
    ])
    func maxStepsStopsInfiniteLoops(_ source: String) throws {
        for keepGoing in [false, true] {
            let result = try A.check(
                source + "\nprint(\"not reached\")\n", .runtimeError,
                message: "more than 1000 statements executed; raise the limit with --max-steps",
                arguments: ["--max-steps", "1000", "--quiet"] + (keepGoing ? ["--keep-going"] : []))
            #expect(!result.out.contains("not reached") || keepGoing, "\(result)")
        }
    }
}
