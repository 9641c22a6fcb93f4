import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun

/// Issue 42 item 2: a `.swift` file is taken wherever a `.kvo` is. `kvo-run
/// test` runs a folder's `X.swift` beside its `X.out`, a named `X.swift`,
/// writes its `X.out` with `--update`, and names it in JUnit; `check`,
/// `graph`, `trace` and `--explain` take one. Before, `test` skipped them
/// silently and said `no scenarios (X.kvo files)` for a named one, so users
/// renamed their programs to `.kvo` and lost their editor's highlighting.
@Suite(.serialized) struct SwiftFileTests {
    /// One program for every test: compiled once, then taken from the cache
    /// (a program is cached by its source and its file name).
    static let program = """
        import Foundation
        class Account: NSObject { @objc dynamic var balance = 0 }
        let acct = Account()
        let token = acct.observe(\\.balance, options: [.new]) { _, change in print("now", change.newValue ?? 0) }
        acct.balance = 5

        """
    static let output = "acct.balance → token {kind = 1; new = 5}\n  now 5\n"

    /// A folder `s/` with a scenario and a Swift program, each beside its
    /// golden, and a Swift source that is no golden (no `.out`).
    func goldens() throws -> Folder {
        let folder = try Folder()
        try folder.write("s/a.kvo", "print(1)\n")
        try folder.write("s/a.out", "1\n")
        try folder.write("s/b.swift", Self.program)
        try folder.write("s/b.out", Self.output)
        try folder.write("s/helper.swift", "func helper() {}\n")
        return folder
    }

    @Test func aFolderRunsAndCountsItsSwiftGoldens() throws {
        let folder = try goldens()
        #expect(Golden.find([folder.url.path + "/s"]).files.map(Files.baseName) == ["a.kvo", "b.swift"])
        let result = try folder.run(["test", "s", "--junit", "report.xml"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "2 passed, 0 failed\n", "\(result)")
        let xml = try folder.read("report.xml")
        #expect(xml.contains("<testsuites tests=\"2\" failures=\"0\""), "\(xml)")
        #expect(xml.contains("name=\"s/b.swift\""), "\(xml)")
        // A Swift golden that differs fails with its diff, as a scenario's.
        try folder.write("s/b.out", Self.output.replacingOccurrences(of: "now 5", with: "now 6"))
        let differs = try folder.run(["test", "s"])
        #expect(differs.status == 1, "\(differs)")
        #expect(differs.out.hasPrefix("FAIL s/b.swift\n"), "\(differs)")
        #expect(differs.out.contains("-  now 6\n+  now 5\n"), "\(differs)")
        #expect(differs.out.hasSuffix("1 passed, 1 failed\n"), "\(differs)")
    }

    @Test func aNamedSwiftFileIsAGolden() throws {
        let folder = try goldens()
        let named = try folder.run(["test", "s/b.swift"])
        #expect(named.status == 0, "\(named)")
        #expect(named.out == "1 passed, 0 failed\n", "\(named)")
        // Named, a Swift file without its golden is one to create.
        let lonely = try folder.run(["test", "s/helper.swift"])
        #expect(lonely.status == 1, "\(lonely)")
        #expect(
            lonely.out.contains("missing s/helper.out; create it with 'kvo-run test --update s/helper.swift'"),
            "\(lonely)")
    }

    @Test func updateWritesTheGoldenOfASwiftFile() throws {
        let folder = try Folder()
        try folder.write("new.swift", Self.program)
        let update = try folder.run(["test", "--update", "new.swift"])
        #expect(update.status == 0, "\(update)")
        #expect(update.out == "1 updated, 0 failed\n", "\(update)")
        #expect(try folder.read("new.out") == Self.output)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("new.s.out").path))
        // A directive on the first line works in a `.swift` as in a `.kvo`,
        // and the recorded errors name the `.swift` file.
        try folder.write(
            "broken.swift", "// kvo-run: --expect-errors\nimport Foundation\nlet n: Int = \"one\"\n")
        let errors = try folder.run(["test", "--update", "broken.swift"])
        #expect(errors.status == 0, "\(errors)")
        let golden = try folder.read("broken.out")
        #expect(golden.contains("broken.swift:3:14: error: "), "\(golden)")
        #expect(golden.hasSuffix("# exit status: 2\n"), "\(golden)")
        #expect(try folder.run(["test", "."]).out == "2 passed, 0 failed\n")
    }

    @Test func aDirectiveOfASwiftGoldenAsksForRunOptions() throws {
        let folder = try Folder()
        try folder.write("explained.swift", "// kvo-run: --explain\n" + Self.program)
        let update = try folder.run(["test", "--update", "explained.swift"])
        #expect(update.status == 0, "\(update)")
        let golden = try folder.read("explained.out")
        #expect(golden.hasPrefix("# addObserver: acct[0] registered"), "an explained run has '#' lines: \(golden)")
        #expect(golden.hasSuffix(Self.output), "\(golden)")
    }

    @Test func findingNothingNamesBothKindsOfGolden() throws {
        let folder = try Folder()
        try folder.write("helper.swift", "func helper() {}\n")
        let result = try folder.run(["test", "."])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains("no scenarios (X.kvo files, or X.swift files beside an X.out) under ."), "\(result)")
    }

    /// `X.kvo` and `X.swift` in one folder would both record into `X.out`.
    @Test func aScenarioAndASwiftFileOfOneNameDoNotShareAGolden() throws {
        let folder = try Folder()
        try folder.write("s/a.kvo", "print(1)\n")
        try folder.write("s/a.swift", Self.program)
        try folder.write("s/a.out", "1\n")
        let result = try folder.run(["test", "s"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.out
                == "FAIL s/a.swift\na.kvo and a.swift would share the golden a.out; rename one of them\n"
                + "1 passed, 1 failed\n", "\(result)")
    }

    @Test func checkGraphTraceAndExplainTakeASwiftFile() throws {
        let folder = try Folder()
        try folder.write("b.swift", Self.program)
        try folder.write("bad.swift", "import Foundation\nlet n: Int = \"one\"\n")
        let check = try folder.run(["check", "b.swift"])
        #expect(check.status == 0 && check.out == "" && check.err == "", "\(check)")
        let bad = try folder.run(["check", "bad.swift", "b.swift"])
        #expect(bad.status == 2, "\(bad)")
        #expect((bad.out + bad.err).contains("bad.swift:2:14: error: "), "\(bad)")
        let graph = try folder.run(["graph", "b.swift"])
        #expect(graph.status == 0, "\(graph)")
        #expect(graph.out.hasPrefix("digraph kvo {\n") && graph.out.contains("acct"), "\(graph)")
        let trace = try folder.run(["trace", "b.swift"])
        #expect(trace.status == 0, "\(trace)")
        #expect(trace.out.contains("<svg") && trace.out.contains("kvo-run trace b.swift"), "\(trace)")
        let explained = try folder.run(["--explain", "b.swift"])
        #expect(explained.status == 0, "\(explained)")
        #expect(explained.out.hasPrefix("# addObserver: acct[0] registered"), "\(explained)")
        #expect(explained.out.hasSuffix(Self.output), "\(explained)")
    }

    /// At a terminal, `graph b.swift` drew `b.swift.graph.svg`; as for
    /// `b.kvo`, the picture is `b.graph.svg`.
    @Test func aSwiftFilesPictureAtATerminalIsNamedAfterIt() throws {
        let folder = try Folder()
        let program = try folder.write("b.swift", Self.program)
        for (command, suffixes) in [("graph", [".graph.svg", ".graph.dot"]), ("trace", [".trace.svg"])] {
            let terminal = try Terminal(arguments: [command, program], environment: [:])
            #expect(terminal.wait() == 0, "\(terminal.transcript)")
            let said = terminal.transcript
            #expect(said.hasPrefix("the \(command) is in /"), "\(said)")
            let path = said.dropFirst("the \(command) is in ".count).components(separatedBy: " (").first ?? ""
            #expect(suffixes.contains { path.hasSuffix("/b" + $0) }, "\(path)")
        }
    }
}
