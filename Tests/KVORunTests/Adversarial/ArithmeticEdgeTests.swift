import _KVOTestSupport
import Foundation
import Testing

/// Int overflow, division by zero and extreme number literals: runtime errors with a location, never a trap.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct ArithmeticEdgeTests {
    typealias A = Adversarial

    // MARK: Int overflow and division

    @Test(arguments: [
        ("big + 1", "arithmetic overflow"),
        ("small - 1", "arithmetic overflow"),
        ("big * 2", "arithmetic overflow"),
        ("big * big", "arithmetic overflow"),
        ("small * -1", "arithmetic overflow"),
        ("-small", "arithmetic overflow"),
        ("-(small)", "arithmetic overflow"),
        ("small / -1", "arithmetic overflow"),
        ("small % -1", "arithmetic overflow"),
        ("5 % 0", "division by zero"),
        ("5 / 0", "division by zero"),
        ("small / 0", "division by zero"),
        ("0 % 0", "division by zero"),
    ])
    func intOverflowAndDivisionByZero(_ expression: String, _ message: String) throws {
        let result = try A.check(
            """
            let big = 9223372036854775807
            let small = -9223372036854775807 - 1
            print("before")
            print(\(expression))
            print("not reached")

            """, .runtimeError, message: message)
        #expect(result.out == "before\n", "\(result)")
        #expect(result.err.hasPrefix("adv.kvo:4:"), "\(result)")
    }

    @Test func overflowInCompoundAssignmentAndLoops() throws {
        try A.check("var x = 9223372036854775807\nx += 1\n", .runtimeError, message: "arithmetic overflow")
        try A.check("var x = 1\nwhile true { x = x * 3 }\n", .runtimeError, message: "arithmetic overflow")
        try A.check("for i in 9223372036854775806...9223372036854775807 { print(i) }\n", .success)
        try A.check("for i in (-9223372036854775807 - 1)..<(-9223372036854775807) { print(i) }\n", .success)
        try A.check("for i in 9223372036854775807...0 { print(i) }\n", .runtimeError)
        try A.check("print([9223372036854775807, 1].value(forKeyPath: \"@sum.self\"))\n", .success)
    }

    @Test func doubleDivisionByZeroIsNotAnError() throws {
        let result = try A.check("print(5.0 / 0)\nprint(-5.0 / 0)\nprint(0.0 / 0.0)\nprint(1e308 * 10)\n", .success)
        #expect(result.out == "inf\n-inf\nnan\ninf\n", "\(result)")
    }

    @Test(arguments: [
        "print(9223372036854775808)",
        "print(-9223372036854775809)",
        "print(99999999999999999999999999999999999999)",
        "print(" + String(repeating: "9", count: 100_000) + ")",
        "print(1e99999)",
        "print(1e" + String(repeating: "9", count: 10_000) + ")",
        "print(1_000_000_000_000_000_000_000)",
        "print(0x10)",
        "print(1e)",
        "print(1.)",
        "print(.5)",
        "print(1e+)",
    ])
    func hugeAndMalformedNumberLiterals(_ line: String) throws {
        try A.check(line + "\n", .scriptError)
    }

    @Test func tinyAndLongDoubleLiterals() throws {
        let result = try A.check(
            "print(1e-400)\nprint(1." + String(repeating: "1", count: 100_000) + ")\nprint(1.7976931348623157e308)\n",
            .success)
        #expect(result.outLines.count == 3, "\(result)")
    }
}
