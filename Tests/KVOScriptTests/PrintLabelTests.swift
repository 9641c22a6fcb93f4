import _KVOTestSupport
import KVOScript
import Testing

/// `print(items…, separator:, terminator:)` as in Swift.
@Suite struct PrintLabelTests {
    @Test func separatorJoinsTheItems() {
        let result = run("print(1, \"a\", 2.5, separator: \"-\")\nprint(1, 2, separator: \"\")\n")
        #expect(result.status == 0)
        #expect(result.out == "1-a-2.5\n12\n")
    }

    @Test func anEmptyTerminatorContinuesTheLine() {
        let result = run(
            "print(\"a\", terminator: \"\")\nprint(\"b\")\nfor i in 0..<3 { print(i, terminator: \" \") }\nprint()\n")
        #expect(result.out == "ab\n0 1 2 \n")
    }

    @Test func aLineLeftOpenEndsWithTheRun() {
        let result = run("print(\"x\", terminator: \"\")\n")
        #expect(result.out == "x\n")
    }

    @Test func aTerminatorWithLineBreaks() {
        let result = run("print(1, terminator: \"\\n\\n\")\nprint(2, separator: \",\", terminator: \"!\\n\")\n")
        #expect(result.out == "1\n\n2!\n")
    }

    @Test func anUnknownLabelIsACheckError() {
        let result = check("print(1, sep: \"-\")\n")
        #expect(result.status == 2)
        #expect(
            result.err.hasPrefix(
                "t.kvo:1:10: error: print has no argument 'sep:'; it takes items, then separator: and terminator:\n"))
    }

    @Test func itemsComeBeforeTheLabels() {
        let result = check("print(separator: \"-\", 1)\n")
        #expect(result.status == 2)
        #expect(result.err.contains("print's items come before separator: and terminator:"))
    }

    @Test func aSeparatorMustBeAString() {
        let result = run("print(1, 2, separator: 3)\n")
        #expect(result.status == 1)
        #expect(result.err.contains("print's separator: must be a string, not Int"))
    }
}
