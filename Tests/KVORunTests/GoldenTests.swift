import _KVOTestSupport
import KVORun
import Foundation
import Testing
@testable import KVOScript

/// One scenario under `scenarios/`, named by its path relative to that folder
/// so each shows up as its own test case.
struct Scenario: CustomTestStringConvertible, Sendable {
    let path: String
    let relativePath: String
    var testDescription: String { relativePath }

    /// Every golden of the package, `scenarios/**/X.kvo` and `X.swift`, found
    /// from this file's path as `kvo-run test scenarios` finds them.
    static let all: [Scenario] = {
        let folder = packageRoot().appendingPathComponent("scenarios").path
        return Golden.find([folder]).files.map {
            Scenario(path: $0, relativePath: String($0.dropFirst(folder.count + 1)))
        }
    }()
}

/// docs/cli.md#test: every `X.kvo` or `X.swift` beside an `X.out` holding all it prints and, when
/// the status is not 0, a last line `# exit status: N`.
/// `UPDATE_GOLDENS=1 swift test --filter GoldenTests` rewrites the `.out` files.
@Suite struct GoldenTests {
    static var update: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" }

    @Test func thereAreScenarios() {
        #expect(Scenario.all.count > 0, "no scenarios found under \(packageRoot().path)/scenarios")
    }

    /// Issue 42: the Swift goldens are `X.swift`, run as `kvo-run test` runs
    /// them; a `.swift` golden's `.out` is `X.out`.
    @Test func theSwiftGoldensAreSwiftFiles() {
        let swift = Scenario.all.filter { $0.relativePath.hasPrefix("swift/") }
        #expect(swift.count > 0)
        #expect(swift.allSatisfy { $0.relativePath.hasSuffix(".swift") }, "\(swift.map(\.relativePath))")
        #expect(
            Golden.expectedPath(for: "scenarios/swift/01_dynamic_or_not.swift")
                == "scenarios/swift/01_dynamic_or_not.out")
        #expect(Golden.expectedPath(for: "a/b.kvo") == "a/b.out")
    }

    @Test(arguments: Scenario.all)
    func scenarioMatchesItsGoldenFile(_ scenario: Scenario) {
        let update = Self.update
        let outcome = onLargeStack { Golden.check(scenario.path, update: update) }
        #expect(outcome.passed, "\(scenario.relativePath):\n\(outcome.report)")
    }

    // MARK: The golden runner itself

    /// A fresh temporary folder, removed after `body`.
    func withTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func aMissingGoldenFileFails() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("lonely.kvo").path
            try "print(1)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            let outcome = onLargeStack { Golden.check(scenario, update: false) }
            #expect(!outcome.passed)
            #expect(outcome.report.contains("missing"))
            #expect(outcome.report.contains("lonely.out"))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lonely.out").path))
        }
    }

    @Test func aMatchingGoldenFilePassesAndAStatusLineIsAppended() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("fails.kvo").path
            try "print(\"hi\")\nprint(1 / 0)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            try """
            hi
            fails.kvo:2:9: error: division by zero
            print(1 / 0)
                    ^
            # exit status: 1

            """.write(toFile: folder.appendingPathComponent("fails.out").path, atomically: true, encoding: .utf8)
            let outcome = onLargeStack { Golden.check(scenario, update: false) }
            #expect(outcome.passed, "\(outcome.report)")
        }
    }

    @Test func aDifferentGoldenFileFailsWithADiff() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("differs.kvo").path
            try "print(\"b\")\nprint(\"c\")\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            try "b\nx\n".write(
                toFile: folder.appendingPathComponent("differs.out").path, atomically: true, encoding: .utf8)
            let outcome = onLargeStack { Golden.check(scenario, update: false) }
            #expect(!outcome.passed)
            #expect(outcome.report.contains("-x\n"))
            #expect(outcome.report.contains("+c\n"))
            #expect(outcome.report.contains(" b\n"))
        }
    }

    /// Issue 26: a golden missing only its final newline failed with an
    /// empty diff, and a CRLF golden diffed as one line.
    @Test func aGoldenDiffShowsAMissingNewlineAndCRLFLinesOneByOne() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("s.kvo").path
            try "print(1)\nprint(2)\nprint(3)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            let golden = folder.appendingPathComponent("s.out").path
            try "1\n2\n3".write(toFile: golden, atomically: true, encoding: .utf8)
            let noNewline = onLargeStack { Golden.check(scenario, update: false) }
            #expect(!noNewline.passed)
            #expect(noNewline.report.hasSuffix("@@ -1,3 +1,3 @@\n 1\n 2\n-3\n\\ No newline at end of file\n+3\n"))
            try "1\r\n5\r\n3\r\n".write(toFile: golden, atomically: true, encoding: .utf8)
            let crlf = onLargeStack { Golden.check(scenario, update: false) }
            #expect(!crlf.passed)
            #expect(crlf.report.hasPrefix("(\(golden) has CRLF line endings; compared without the CRs)\n"))
            #expect(crlf.report.hasSuffix("@@ -1,3 +1,3 @@\n 1\n-5\n+2\n 3\n"), "\(crlf.report)")
            try "1\r\n2\r\n3\r\n".write(toFile: golden, atomically: true, encoding: .utf8)
            #expect(onLargeStack { Golden.check(scenario, update: false) }.passed)
        }
    }

    /// Issue 26: a `// kvo-run:` directive failed when the scenario was
    /// checked out with CRLF line endings.
    @Test func aDirectiveWorksWithCRLFLineEndings() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("d.kvo").path
            try "// kvo-run: --keep-going\r\nassert(false)\r\nprint(2)\r\n".write(
                toFile: scenario, atomically: true, encoding: .utf8)
            try "d.kvo:2:7: error: assertion failed\r\nassert(false)\r\n      ^\r\n2\r\n# exit status: 1\r\n".write(
                toFile: folder.appendingPathComponent("d.out").path, atomically: true, encoding: .utf8)
            let outcome = onLargeStack { Golden.check(scenario, update: false) }
            #expect(outcome.passed, "\(outcome.report)")
        }
    }

    @Test func updateWritesTheGoldenFile() throws {
        try withTemporaryFolder { folder in
            let scenario = folder.appendingPathComponent("new.kvo").path
            try "print(\"fresh\")\nassert(false)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
            let outcome = onLargeStack { Golden.check(scenario, update: true) }
            #expect(outcome.passed)
            let written = try String(contentsOfFile: folder.appendingPathComponent("new.out").path, encoding: .utf8)
            #expect(
                written == """
                    fresh
                    new.kvo:2:7: error: assertion failed
                    assert(false)
                          ^
                    # exit status: 1

                    """)
            #expect(onLargeStack { Golden.check(scenario, update: false) }.passed)
        }
    }

    /// The golden diff reads as `diff -u` prints it (expected texts from GNU diffutils).
    @Test(arguments: [
        (
            "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk\nl\nm\nn\n",
            """
            @@ -1,13 +1,14 @@
             a
            -b
            +B
             c
             d
             e
             f
             g
             h
            -i
            +I
             j
             k
             l
             m
            +n

            """
        ),
        (
            (1...30).map { "\($0)\n" }.joined(),
            "0\n" + (2...14).map { "\($0)\n" }.joined() + "x\n" + (15...28).map { "\($0)\n" }.joined(),
            """
            @@ -1,4 +1,4 @@
            -1
            +0
             2
             3
             4
            @@ -12,6 +12,7 @@
             12
             13
             14
            +x
             15
             16
             17
            @@ -26,5 +27,3 @@
             26
             27
             28
            -29
            -30

            """
        ),
        ("", "only\n", "@@ -0,0 +1 @@\n+only\n"),
        // Issue 26: only the final newline differs (was an empty diff).
        ("x\ny", "x\ny\n", "@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"),
        ("x\ny\n", "x\nz", "@@ -1,2 +1,2 @@\n x\n-y\n+z\n\\ No newline at end of file\n"),
        // A "\r\n" Character still ends a line (was one line for the file).
        ("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", "@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n"),
    ])
    func unifiedDiffMatchesDiffU(expected: String, actual: String, hunks: String) {
        let diff = UnifiedDiff.render(expected: expected, actual: actual, expectedName: "a", actualName: "b")
        #expect(diff == "--- a\n+++ b\n" + hunks)
    }
}
