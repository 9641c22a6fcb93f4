import _KVOTestSupport
import Foundation
import KVORun
import KVOScript
import Testing

/// Every scenario shown in `README.md` and `docs/` runs and prints exactly the
/// output shown under it, so a change of behaviour fails the documentation as
/// it fails the golden files.
@Suite struct DocExamplesTests {
    @Test func theDocumentationHasExamples() {
        #expect(DocExample.documents.contains("docs/language.md"), "docs/language.md is missing")
        #expect(
            DocExample.all.filter { !$0.norun }.count >= 20,
            "expected the documentation to show at least 20 checked examples")
    }

    @Test(arguments: DocExample.all.filter { !$0.norun })
    func exampleRunsAsShown(_ example: DocExample) {
        guard example.problem == nil, let expected = example.expected else {
            Issue.record("\(example.location): \(example.problem ?? "no output block")")
            return
        }
        let actual = example.actualOutput()
        #expect(
            actual == expected,
            """
            \(example.location): the output differs from the ```output block
            \(UnifiedDiff.render(expected: expected, actual: actual, expectedName: "documented", actualName: "actual"))
            """)
    }

    /// A ```kvo block with no output block and no `norun` mark would never be
    /// checked: it is an error, as is a fence word the checker does not know.
    @Test func everyScenarioBlockIsCheckedOrMarkedNorun() {
        let unchecked = DocExample.all.filter { $0.problem != nil }.map { "\($0.location): \($0.problem ?? "")" }
        #expect(unchecked.isEmpty, "\(unchecked.joined(separator: "\n"))")
    }

    // MARK: The block finder itself

    @Test func aScenarioWithoutOutputOrNorunIsReported() {
        let markdown = """
            Text.

            ```kvo
            print(1)
            ```

            More text.

            ```output
            1
            ```
            """
        let examples = DocExample.examples(in: markdown, path: "x.md")
        #expect(examples.count == 1)
        #expect(examples.first?.expected == nil)
        #expect(examples.first?.problem?.contains("must be followed by an ```output block") == true)
    }

    @Test func blocksArePairedAndOptionsRead() {
        let markdown = """
            ```kvo file=bank.kvo --format json --keep-going
            print("a")
            ```

            ```output
            {"event":"print","text":"a","depth":0}
            ```
            ```kvo norun
            struct S {}
            ```
            ```swift
            let x = 1
            ```
            """
        let examples = DocExample.examples(in: markdown, path: "x.md")
        #expect(examples.count == 2)
        guard examples.count == 2 else { return }
        #expect(examples[0].location == "x.md:1")
        #expect(examples[0].problem == nil)
        #expect(examples[0].file == "bank.kvo")
        #expect(examples[0].format == .json)
        #expect(examples[0].options.keepGoing)
        #expect(examples[0].source == "print(\"a\")\n")
        #expect(examples[0].expected == "{\"event\":\"print\",\"text\":\"a\",\"depth\":0}\n")
        #expect(examples[1].norun && examples[1].problem == nil)
    }

    @Test func explainAndLegacyDeallocAreRead() {
        let markdown = "```kvo --explain --legacy-dealloc\nprint(1)\n```\n```output\n1\n```\n```kvo\nprint(1)\n```\n"
        let examples = DocExample.examples(in: markdown, path: "x.md")
        #expect(examples.count == 2)
        guard examples.count == 2 else { return }
        #expect(examples[0].problem == nil)
        #expect(examples[0].options.explain && examples[0].options.legacyDealloc)
        #expect(!examples[1].options.explain && !examples[1].options.legacyDealloc)
    }

    @Test func anUnknownFenceWordIsReported() {
        let examples = DocExample.examples(in: "```kvo --fast\nprint(1)\n```\n```output\n1\n```\n", path: "x.md")
        #expect(examples.first?.problem?.contains("unknown word '--fast'") == true)
    }

    @Test func aChangedBehaviourFailsTheExample() throws {
        let markdown = "```kvo\nprint(1 + 1)\nprint(1 / 0)\n```\n\n```output\n2\n# exit status: 1\n```\n"
        let example = try #require(DocExample.examples(in: markdown, path: "x.md").first)
        let actual = example.actualOutput()
        #expect(actual.hasPrefix("2\nexample.kvo:2:9: error: division by zero"))
        #expect(actual.hasSuffix("# exit status: 1\n"))
        #expect(actual != example.expected)
    }
}
