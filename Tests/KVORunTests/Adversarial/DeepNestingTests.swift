import _KVOTestSupport
import Foundation
import Testing

/// Source nested 10,000 deep: the parser stops at its nesting limit, never at the end of its stack.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct DeepNestingTests {
    typealias A = Adversarial

    // MARK: 10,000-deep nesting

    @Test(arguments: [
        (
            "parentheses",
            "let x = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
                + "\nprint(x)\n"
        ),
        (
            "brackets",
            "let x = " + String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000)
                + "\nprint(x)\n"
        ),
        ("braces", String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000) + "\n"),
        (
            "if blocks",
            String(repeating: "if true {\n", count: 10_000) + "print(1)\n" + String(repeating: "}\n", count: 10_000)
        ),
        ("while blocks", String(repeating: "while false {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("for blocks", String(repeating: "for i in [1] {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("do blocks", String(repeating: "do {\n", count: 10_000) + String(repeating: "} catch { }\n", count: 10_000)),
        ("functions", String(repeating: "func f() {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        // A flat else-if chain or operator chain is not nesting (issue 15):
        // HostileIOTests.longChainsCompileAndRunWithoutRecursion runs them.
        (
            "interpolations",
            "print(" + String(repeating: "\"\\(", count: 10_000) + "1" + String(repeating: ")\"", count: 10_000) + ")\n"
        ),
        ("unterminated interpolations", "print(" + String(repeating: "\"\\(", count: 10_000) + "\n"),
        ("unary minus", "print(" + String(repeating: "-", count: 10_000) + "1)\n"),
        ("logical not", "print(" + String(repeating: "!", count: 10_000) + "true)\n"),
        ("calls", String(repeating: "print(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + "\n"),
        (
            "subscripts",
            "let a = [1]\nprint(a" + String(repeating: "[0", count: 10_000) + String(repeating: "]", count: 10_000)
                + ")\n"
        ),
        (
            "array literal in argument",
            "print(" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + ")\n"
        ),
        ("member chain", "let x = 1" + String(repeating: ".a", count: 10_000) + "\n"),
        ("class bodies", String(repeating: "class A {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("setter blocks", "class A {\n" + String(repeating: "var x: Int = 0 { set {\n", count: 10_000) + "\n}\n"),
    ])
    func tenThousandDeep(_ name: String, _ source: String) throws {
        try A.check(source, .failure, name)
        try A.check(source, .scriptError, arguments: ["check"], name + " (kvo-run check)")
    }

    /// Nested block comments are not parser nesting: 10,000 of them are fine.
    @Test func tenThousandNestedComments() throws {
        let result = try A.check(
            String(repeating: "/*", count: 10_000) + String(repeating: "*/", count: 10_000) + "\nprint(1)\n", .success)
        #expect(result.out == "1\n")
    }
}
