import _KVOTestSupport
import KVORun
import Foundation
import Testing

let observedScenario = """
    class Account { var balance: Double = 0 }
    class Person { }
    let acct = Account()
    let alice = Person()
    acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
    acct.balance = 1
    acct.balance = 2
    print("done")

    """

@Suite(.serialized) struct KVORunTests {
    @Test func theBinaryIsFound() {
        #expect(CLI.binary != nil, "looked next to \(CommandLine.arguments.first ?? "?") and in .build/debug")
    }

    /// With `--scratch-path`, the kvo-run just built beside the test runner is
    /// the one under test, not a stale `.build/debug/kvo-run`.
    @Test func theBinaryBesideTheTestRunnerIsPreferred() throws {
        let runner = URL(fileURLWithPath: try #require(CommandLine.arguments.first)).resolvingSymlinksInPath()
        let beside = runner.deletingLastPathComponent().appendingPathComponent("kvo-run")
        if FileManager.default.isExecutableFile(atPath: beside.path) {
            #expect(CLI.binary?.path == beside.path)
        }
    }

    // MARK: Exit statuses (docs/language.md#diagnostics)

    @Test func statusZeroOnSuccess() throws {
        let folder = try Folder()
        try folder.write("ok.kvo", observedScenario)
        let result = try folder.run(["ok.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.crashed)
        #expect(
            result.out == """
                acct.balance → alice {kind = 1; new = 1; old = 0}
                acct.balance → alice {kind = 1; new = 2; old = 1}
                done

                """)
        #expect(result.err == "")
    }

    /// A failing scenario: its status, and exactly what it prints on each stream.
    struct Failing: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        let status: Int32
        let out: String
        let err: String
        var testDescription: String { name }
    }

    static let failing = [
        Failing(
            name: "a runtime error is status 1",
            source: "print(\"before\")\nprint(1 / 0)\nprint(\"after\")\n", status: 1,
            out: "before\n", err: "t.kvo:2:9: error: division by zero\nprint(1 / 0)\n        ^\n"),
        Failing(
            name: "an uncaught exception is status 1",
            source: "class A { }\nlet a = A()\nprint(a.value(forKey: \"nope\"))\nprint(\"after\")\n", status: 1,
            out:
                "*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<A a> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope.'\n",
            // The check-time warning of SPEC §9 first: 'nope' is no key of A.
            err:
                "t.kvo:3:23: warning: A has no key 'nope' (Apple raises NSUnknownKeyException when this runs)\nprint(a.value(forKey: \"nope\"))\n                      ^~~~~~\n"
                + "t.kvo:3:6: note: the uncaught exception 'NSUnknownKeyException' was raised here\nprint(a.value(forKey: \"nope\"))\n     ^\n"
        ),
        Failing(
            name: "script errors are status 2, and nothing runs",
            source: "print(\"never\")\nlet a = Acount()\nclass Account { }\n", status: 2,
            out: "",
            err: "t.kvo:2:9: error: unknown class 'Acount'; did you mean 'Account'?\nlet a = Acount()\n        ^~~~~~\n"
        ),
    ]

    @Test(arguments: failing)
    func exitStatusOfAFailingScenario(_ scenario: Failing) throws {
        let folder = try Folder()
        try folder.write("t.kvo", scenario.source)
        let result = try folder.run(["t.kvo"])
        #expect(result.status == scenario.status, "\(result)")
        #expect(!result.crashed)
        #expect(result.out == scenario.out)
        #expect(result.err == scenario.err)
    }

    @Test(arguments: [
        ["--bogus", "x.kvo"],
        ["--format", "xml", "x.kvo"],
        ["--max-depth", "0", "x.kvo"],
        ["--max-steps", "-5", "x.kvo"],
        ["check"],
        ["no-such-file.kvo"],
    ])
    func status64OnAUsageError(_ arguments: [String]) throws {
        let folder = try Folder()
        try folder.write("x.kvo", "print(1)\n")
        let result = try folder.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.out == "")
        #expect(!result.err.isEmpty)
    }

    @Test func unknownOptionIsNamed() throws {
        let folder = try Folder()
        try folder.write("x.kvo", "print(1)\n")
        let result = try folder.run(["--bogus", "x.kvo"])
        #expect(result.status == 64)
        #expect(result.err.contains("--bogus"))
    }

    // MARK: Standard input

    @Test func dashReadsTheScenarioFromStandardInput() throws {
        let result = try CLI.run(["-"], stdin: .pipe(observedScenario))
        #expect(result.status == 0, "\(result)")
        #expect(
            result.out == """
                acct.balance → alice {kind = 1; new = 1; old = 0}
                acct.balance → alice {kind = 1; new = 2; old = 1}
                done

                """)
        #expect(result.err == "")
    }

    @Test func diagnosticsForStandardInputNameIt() throws {
        let result = try CLI.run(["-"], stdin: .pipe("print(nope)\n"))
        #expect(result.status == 2, "\(result)")
        #expect(result.err == "<stdin>:1:7: error: cannot find 'nope' in scope\nprint(nope)\n      ^~~~\n")
    }

    @Test func pipedStandardInputWithoutAFileRunsItWithoutPromptOrBanner() throws {
        let result = try CLI.run([], stdin: .pipe("let x = 1 +\n    2\nprint(\"x is\", x)\n"))
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "x is 3\n")
        #expect(result.err == "")
    }

    @Test func emptyStandardInputIsAnEmptyScenario() throws {
        let result = try CLI.run([])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "")
        #expect(result.err == "")
    }

    // MARK: check

    @Test func checkDoesNotRunTheScenario() throws {
        let folder = try Folder()
        try folder.write("s.kvo", "print(\"would print\")\nprint(1 / 0)\n")
        let result = try folder.run(["check", "s.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "")
        #expect(result.err == "")
    }

    @Test func checkReportsEveryError() throws {
        let folder = try Folder()
        try folder.write("s.kvo", "let k = 1\nk = 2\nreturn 3\n")
        let result = try folder.run(["check", "s.kvo"])
        #expect(result.status == 2, "\(result)")
        #expect(result.out == "")
        #expect(
            result.err == """
                s.kvo:2:1: error: cannot assign to 'k': it is a 'let' constant; declare it with 'var' to change it
                k = 2
                ^
                s.kvo:3:1: error: 'return' outside of a function
                return 3
                ^~~~~~

                """)
    }

    @Test func checkReadsStandardInput() throws {
        let result = try CLI.run(["check", "-"], stdin: .pipe("print(nope)\n"))
        #expect(result.status == 2, "\(result)")
        #expect(result.err.hasPrefix("<stdin>:1:7: error: cannot find 'nope' in scope\n"))
    }

    @Test func checkPrintsWarningsButSucceeds() throws {
        let folder = try Folder()
        try folder.write(
            "w.kvo",
            """
            class Employee { var salary: Double = 0 }
            class Department {
                var employees: [Employee]
                @affectedBy(employees.salary)
                var total: Double { 0 }
            }

            """)
        let result = try folder.run(["check", "w.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.err.hasPrefix(
                "w.kvo:4:17: warning: the affecting key path 'employees.salary' goes through the to-many relationship 'employees'"
            ))
    }

    // MARK: test (golden files)

    func goldenFolder() throws -> Folder {
        let folder = try Folder()
        try folder.write("goldens/pass.kvo", "print(\"a\")\n")
        try folder.write("goldens/pass.out", "a\n")
        try folder.write("goldens/fail.kvo", "print(\"b\")\nprint(\"c\")\n")
        try folder.write("goldens/fail.out", "b\nx\n")
        return folder
    }

    @Test func testReportsPassesFailuresAndADiff() throws {
        let folder = try goldenFolder()
        let result = try folder.run(["test", "goldens"])
        #expect(result.status != 0, "\(result)")
        #expect(result.status == 1)
        #expect(result.out.contains("goldens/fail.kvo"))
        #expect(!result.out.contains("goldens/pass.kvo"))
        #expect(result.out.contains("--- goldens/fail.out\n"))
        #expect(result.out.contains("+++ "))
        #expect(result.out.contains("\n b\n"))
        #expect(result.out.contains("\n-x\n"))
        #expect(result.out.contains("\n+c\n"))
        #expect(result.outLines.last == "1 passed, 1 failed")
    }

    /// A unified diff's hunks start `@@ -l,s +l,s @@`, so tools (patch, editors) can read it.
    @Test func testDiffHunksHaveLineRanges() throws {
        let folder = try goldenFolder()
        let result = try folder.run(["test", "goldens"])
        let hunks = result.outLines.filter { $0.hasPrefix("@@") }
        #expect(!hunks.isEmpty, "\(result)")
        for hunk in hunks {
            #expect(
                hunk.range(of: #"^@@ -\d+(,\d+)? \+\d+(,\d+)? @@"#, options: .regularExpression) != nil,
                "hunk header: \(hunk)")
        }
    }

    @Test func testPassesWhenEveryGoldenMatches() throws {
        let folder = try goldenFolder()
        try folder.write("goldens/fail.out", "b\nc\n")
        let result = try folder.run(["test", "goldens"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "2 passed, 0 failed\n")
    }

    @Test func testUpdateRewritesTheGoldenFiles() throws {
        let folder = try goldenFolder()
        let update = try folder.run(["test", "--update", "goldens"])
        #expect(update.status == 0, "\(update)")
        let rewritten = try String(
            contentsOfFile: folder.url.appendingPathComponent("goldens/fail.out").path, encoding: .utf8)
        #expect(rewritten == "b\nc\n")
        let again = try folder.run(["test", "goldens"])
        #expect(again.status == 0, "\(again)")
        #expect(again.outLines.last == "2 passed, 0 failed")
    }

    @Test func testFailsForAMissingGoldenFile() throws {
        let folder = try Folder()
        try folder.write("goldens/lonely.kvo", "print(1)\n")
        let result = try folder.run(["test", "goldens"])
        #expect(result.status == 1, "\(result)")
        #expect(result.out.contains("lonely"))
        #expect(result.outLines.last == "0 passed, 1 failed")
    }

    // MARK: --format json

    @Test func jsonOutputLinesAreValidJSON() throws {
        let folder = try Folder()
        try folder.write(
            "j.kvo",
            """
            context Ctx
            class Account { var balance: Double = 0
                            var tags: Set<String> }
            class Person {
                func observeValue(keyPath, object, change, context) {
                    print("handled \\(keyPath)\\t\\"quoted\\" \\u{1F600}")
                }
            }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old, .initial, .prior], context: Ctx)
            acct.addObserver(alice, forKeyPath: "tags", options: [.new, .old])
            acct.balance = 2.5
            acct.mutableSetValue(forKey: "tags").union(["b", "a"])
            print(acct.observationInfo)
            do { acct.removeObserver(alice, forKeyPath: "nope") } catch { print(error.reason) }
            let xs = [1, 2]
            print(xs[5])
            acct.removeObserver(alice, forKeyPath: "nope")

            """)
        let result = try folder.run(["--format", "json", "--keep-going", "j.kvo"])
        #expect(result.status == 1, "\(result)")
        #expect(result.err == "")
        let lines = result.outLines
        #expect(lines.count >= 8, "\(result)")
        var events: [String] = []
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)")
            if let event = object?["event"] as? String { events.append(event) }
        }
        #expect(events.count == lines.count)
        // "warning": the uncaught removal of "nope", no key of Account (SPEC §9).
        #expect(Set(events) == ["warning", "notify", "print", "observationInfo", "exception", "error"])
        #expect(events.last == "exception")
    }

    @Test func jsonDiagnosticsGoToStandardOutput() throws {
        let folder = try Folder()
        try folder.write("d.kvo", "print(nope)\n")
        let result = try folder.run(["--format", "json", "d.kvo"])
        #expect(result.status == 2, "\(result)")
        #expect(result.err == "")
        // Every JSON error names its file, a run's as a check's (issue 42, item 3).
        #expect(
            result.out
                == #"{"event":"error","message":"cannot find 'nope' in scope","line":1,"column":7,"file":"d.kvo"}"#
                + "\n")
    }

    // MARK: --quiet --stats

    @Test func quietStatsPrintsAStatsLineAndNoNotifications() throws {
        let folder = try Folder()
        try folder.write("q.kvo", observedScenario)
        let result = try folder.run(["--quiet", "--stats", "q.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "done\n")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines.last == "", "exactly one line on stderr: \(result.err)")
        #expect(
            result.err.range(
                of: #"^kvo-run: 2 notifications, 2 objects, \d+ statements, [0-9.]+ ms\n$"#,
                options: .regularExpression) != nil, "\(result.err)")
    }

    @Test func statsAlsoCountsPrintedNotifications() throws {
        let folder = try Folder()
        try folder.write("s.kvo", observedScenario)
        let result = try folder.run(["--stats", "s.kvo"])
        #expect(result.status == 0)
        #expect(result.outLines.count == 3)
        #expect(result.err.hasPrefix("kvo-run: 2 notifications, 2 objects, "))
    }

    @Test func quietStillPrintsExceptionsAndErrors() throws {
        let folder = try Folder()
        try folder.write("q.kvo", observedScenario + "acct.removeObserver(alice, forKeyPath: \"nope\")\n")
        let result = try folder.run(["--quiet", "q.kvo"])
        #expect(result.status == 1)
        #expect(
            result.out
                == "done\n*** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path \"nope\" from <Account acct> because it is not registered as an observer.'\n"
        )
    }

    // MARK: Options

    @Test func maxStepsAndMaxDepthFromTheCommandLine() throws {
        let folder = try Folder()
        try folder.write("loop.kvo", "var i = 0\nwhile true { i += 1 }\n")
        try folder.write("deep.kvo", "func f(n) { return f(n + 1) }\nf(0)\n")
        let loop = try folder.run(["--max-steps", "50", "loop.kvo"])
        #expect(loop.status == 1, "\(loop)")
        #expect(
            loop.err.hasPrefix(
                "loop.kvo:2:1: error: more than 50 statements executed; raise the limit with --max-steps\n"))
        let deep = try folder.run(["--max-depth", "30", "deep.kvo"])
        #expect(deep.status == 1, "\(deep)")
        #expect(
            deep.err.hasPrefix(
                "deep.kvo:1:13: error: method calls nested deeper than the maximum depth (30); raise it with --max-depth\n"
            ))
        let deepDefault = try folder.run(["deep.kvo"])
        #expect(deepDefault.status == 1, "\(deepDefault)")
        #expect(!deepDefault.crashed)
    }

    @Test func keepGoingFromTheCommandLine() throws {
        let folder = try Folder()
        try folder.write("k.kvo", "print(1 / 0)\nprint(\"still here\")\n")
        let result = try folder.run(["--keep-going", "k.kvo"])
        #expect(result.status == 1)
        #expect(result.out == "still here\n")
    }

    @Test func runIsTheDefaultSubcommand() throws {
        let folder = try Folder()
        try folder.write("r.kvo", "print(\"ran\")\n")
        #expect(try folder.run(["run", "r.kvo"]).out == "ran\n")
    }

    // MARK: Never a crash (docs/language.md#diagnostics: nothing a script does crashes kvo-run)

    @Test(arguments: [
        (
            "nested parentheses",
            "let x = " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000) + "\n"
        ),
        ("nested blocks", String(repeating: "if true {\n", count: 100_000) + String(repeating: "}\n", count: 100_000)),
        ("long member chain", "let x = a" + String(repeating: ".b", count: 100_000) + "\n"),
    ])
    func deeplyNestedSourceGivesADiagnosticNotACrash(_ name: String, _ source: String) throws {
        let folder = try Folder()
        try folder.write("deep.kvo", source)
        for arguments in [["check", "deep.kvo"], ["deep.kvo"]] {
            let result = try folder.run(arguments)
            #expect(!result.crashed, "\(name), kvo-run \(arguments.joined(separator: " ")): \(result)")
            #expect(result.status == 2, "\(name), kvo-run \(arguments.joined(separator: " ")): \(result)")
            #expect(result.err.contains("error: nesting deeper than 256 levels; split the expression or block"))
        }
    }

    /// A long chain of binary operators nests the parsed tree as deeply as it
    /// is long; the checker and the interpreter must not overflow their stacks.
    @Test func aLongOperatorChainIsCheckedWithoutACrash() throws {
        let folder = try Folder()
        try folder.write("sum.kvo", "let x = " + String(repeating: "1 + ", count: 10_000) + "1\nprint(x)\n")
        let result = try folder.run(["check", "sum.kvo"])
        #expect(!result.crashed, "\(result)")
        #expect(result.status == 0 || result.status == 2, "\(result)")
    }

    @Test func aVeryLongOperatorChainRunsWithoutACrash() throws {
        let folder = try Folder()
        try folder.write("sum.kvo", "let x = " + String(repeating: "1 + ", count: 500_000) + "1\nprint(x)\n")
        let result = try folder.run(["sum.kvo"])
        #expect(!result.crashed, "\(result)")
        #expect(result.status == 0 || result.status == 2, "\(result)")
    }
}
