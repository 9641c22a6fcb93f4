import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Runtime errors (docs/language.md#diagnostics): status 1, and the error names the line: arithmetic, indexes,
/// asserts, types.
@Suite struct RuntimeErrorTests: RunExpectations {
    @Test func divisionByZero() {
        expectRun(
            "print(\"before\")\nlet a = 10\nlet b = 0\nprint(a / b)\nprint(\"after\")\n", status: 1, out: "before\n",
            err: """
                t.kvo:4:9: error: division by zero
                print(a / b)
                        ^

                """)
    }

    @Test func remainderByZero() {
        expectRun(
            "print(7 % 0)\n", status: 1, out: "",
            err: """
                t.kvo:1:9: error: division by zero in remainder
                print(7 % 0)
                        ^

                """)
    }

    @Test func divisionByZeroInsideAFunctionNamesTheLineInTheFunction() {
        expectRun(
            "func share(total, people) {\n    return total / people\n}\nprint(share(10, 4))\nprint(share(10, 0))\n",
            status: 1, out: "2\n",
            err: """
                t.kvo:2:18: error: division by zero
                    return total / people
                                 ^

                """)
    }

    @Test func intOverflow() {
        expectRun(
            "print(9223372036854775807 + 1)\n", status: 1, out: "",
            err: """
                t.kvo:1:27: error: arithmetic overflow: 9223372036854775807 + 1 does not fit in Int
                print(9223372036854775807 + 1)
                                          ^

                """)
    }

    @Test func intOverflowInMultiplicationAndDivision() {
        expectRun(
            "var n = 1\nfor i in 1...20 {\n    n = n * 10\n}\n", status: 1, out: "",
            err: """
                t.kvo:3:11: error: arithmetic overflow: 1000000000000000000 * 10 does not fit in Int
                    n = n * 10
                          ^

                """)
        expectRun(
            "let m = -9223372036854775807 - 1\nprint(m / -1)\n", status: 1, out: "",
            err: """
                t.kvo:2:9: error: arithmetic overflow: -9223372036854775808 / -1 does not fit in Int
                print(m / -1)
                        ^

                """)
    }

    @Test func doubleArithmeticDoesNotOverflow() {
        expectRun("print(1e308 * 10.0)\nprint(1.0 / 0.0 > 1)\n", status: 0, out: "inf\ntrue\n")
    }

    @Test func indexOutOfRange() {
        expectRun(
            "let xs = [1, 2]\nprint(xs[1])\nprint(xs[2])\n", status: 1, out: "2\n",
            err: """
                t.kvo:3:6: error: index 2 out of range for an array of 2 elements
                print(xs[2])
                     ^

                """)
    }

    @Test func indexOutOfRangeInAnAssignment() {
        expectRun(
            "var ys = [1]\nys[3] = 0\n", status: 1, out: "",
            err: """
                t.kvo:2:7: error: index 3 out of range for an array of 1 element
                ys[3] = 0
                      ^

                """)
    }

    @Test func failedAssert() {
        expectRun(
            "assert(1 == 1, \"fine\")\nassert(1 == 2, \"nope\")\n", status: 1, out: "",
            err: """
                t.kvo:2:7: error: assertion failed: nope
                assert(1 == 2, "nope")
                      ^

                """)
        expectRun(
            "assert(false)\n", status: 1, out: "",
            err: """
                t.kvo:1:7: error: assertion failed
                assert(false)
                      ^

                """)
    }

    @Test func typeMismatchThroughASetter() {
        expectRun(
            """
            class A { var n: Int = 0 }
            let a = A()
            a.n = 3
            print(a.n)
            a.n = "x"
            print("not reached")
            """, status: 1, out: "3\n",
            err: """
                t.kvo:5:5: error: cannot store String x in property 'n' of A, declared Int
                a.n = "x"
                    ^

                """)
    }

    @Test func aDoubleIsNotAnInt() {
        expectRun(
            "class A { var n: Int = 0 }\nlet a = A()\na.n = 2.5\n", status: 1, out: "",
            err: """
                t.kvo:3:5: error: cannot store Double 2.5 in property 'n' of A, declared Int
                a.n = 2.5
                    ^

                """)
    }

    @Test func kvcCoercesWhereTheSetterRefuses() {
        // docs/language.md#properties: through setValue(_:forKey:) a String gives the number it starts with.
        expectRun(
            """
            class A { var n: Int = 0
                      var d: Double = 0 }
            let a = A()
            a.setValue("12abc", forKey: "n")
            a.setValue(3, forKey: "d")
            a.d = 4
            print(a.n, a.d)
            """, status: 0, out: "12 4\n")
    }
}
