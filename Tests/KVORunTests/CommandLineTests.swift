import _KVOTestSupport
import Foundation
@testable import KVORun
import Testing

/// The command line as a newcomer meets it: help, mistakes, several files,
/// counts, the golden runner's options, and how files are read.
@Suite(.serialized) struct CommandLineTests {
    // MARK: Help

    @Test func topLevelHelpShowsTheDefaultCommandsOptions() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for option in ["--format", "--quiet", "--stats", "--keep-going", "--max-depth", "--max-steps"] {
            #expect(help.out.contains(option), "\(option) missing from:\n\(help.out)")
        }
        #expect(help.out.contains("kvo-run [run] FILE.kvo"))
        #expect(help.out.contains("check"))
    }

    @Test func checkHelpListsOnlyWhatApplies() throws {
        let help = try CLI.run(["check", "--help"])
        #expect(help.out.contains("--format"))
        for option in ["--keep-going", "--max-steps", "--max-depth", "--quiet", "--stats"] {
            #expect(!help.out.contains(option), "\(option) does not apply to check:\n\(help.out)")
        }
    }

    @Test func aMistypedSubcommandSuggestsTheRightOne() throws {
        let result = try CLI.run(["chek", "x.kvo"])
        #expect(result.status == 64)
        #expect(result.err == "kvo-run: unknown command 'chek'; did you mean 'kvo-run check x.kvo'?\n")
        let test = try CLI.run(["tset"])
        #expect(test.err.contains("did you mean 'kvo-run test'?"))
    }

    @Test func aFileNamedLikeACommandIsStillAFile() throws {
        let folder = try Folder()
        try folder.write("chek", "print(1)\n")
        let result = try folder.run(["chek"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1\n")
    }

    @Test func completionScriptsCompleteKVOFiles() throws {
        let zsh = try CLI.run(["--generate-completion-script", "zsh"])
        #expect(zsh.out.contains("*.kvo"))
        let fish = try CLI.run(["--generate-completion-script", "fish"])
        #expect(fish.status == 0)
        #expect(fish.out.contains("kvo"))
    }

    // MARK: check

    @Test func checkTakesSeveralFiles() throws {
        let folder = try Folder()
        try folder.write("good.kvo", "print(1)\n")
        try folder.write("bad.kvo", "print(nope)\n")
        let both = try folder.run(["check", "good.kvo", "bad.kvo"])
        #expect(both.status == 2)
        #expect(both.err.hasPrefix("bad.kvo:1:7: error: cannot find 'nope' in scope"))
        let good = try folder.run(["check", "good.kvo", "good.kvo"])
        #expect(good.status == 0)
        let missing = try folder.run(["check", "bad.kvo", "missing.kvo"])
        #expect(missing.status == 64)
    }

    // MARK: Counts

    @Test func quietReportsTheCountOfNotifications() throws {
        let folder = try Folder()
        try folder.write("q.kvo", observedScenario)
        let result = try folder.run(["--quiet", "q.kvo"])
        #expect(result.out == "done\n")
        #expect(result.err == "kvo-run: 2 notifications (not shown: --quiet)\n")
    }

    @Test func countsPluralise() throws {
        let folder = try Folder()
        try folder.write(
            "one.kvo",
            """
            class A { var n: Int = 0 }
            let a = A()
            a.addObserver(a, forKeyPath: "n")
            """ + "\n")
        try folder.write(
            "one-notification.kvo",
            """
            class A { var n: Int = 0 }
            let a = A()
            a.addObserver(a, forKeyPath: "n")
            a.n = 1
            """ + "\n")
        let quiet = try folder.run(["--quiet", "one-notification.kvo"])
        #expect(quiet.err == "kvo-run: 1 notification (not shown: --quiet)\n")
        let stats = try folder.run(["--stats", "one.kvo"])
        #expect(stats.err.hasPrefix("kvo-run: 0 notifications, 1 object, 2 statements, "), "\(stats)")
    }

    // MARK: The golden runner

    @Test func testFindingNothingIsAFailure() throws {
        let folder = try Folder()
        try folder.write("notes.txt", "nothing here\n")
        let result = try folder.run(["test", "."])
        #expect(result.status == 1)
        #expect(result.err.contains("no scenarios"))
    }

    @Test func testFilterRunsTheMatchingScenarios() throws {
        let folder = try Folder()
        try folder.write("s/alpha.kvo", "print(1)\n")
        try folder.write("s/alpha.out", "1\n")
        try folder.write("s/beta.kvo", "print(2)\n")
        try folder.write("s/beta.out", "wrong\n")
        let alpha = try folder.run(["test", "s", "--filter", "alp"])
        #expect(alpha.status == 0, "\(alpha)")
        #expect(alpha.out == "1 passed, 0 failed\n")
        let none = try folder.run(["test", "s", "--filter", "gamma"])
        #expect(none.status == 1)
        #expect(none.err.contains("matching 'gamma'"))
    }

    @Test func testWritesAJUnitReport() throws {
        let folder = try Folder()
        try folder.write("s/alpha.kvo", "print(1)\n")
        try folder.write("s/alpha.out", "1\n")
        try folder.write("s/beta.kvo", "print(\"<2>\")\n")
        try folder.write("s/beta.out", "wrong\n")
        let result = try folder.run(["test", "s", "--junit", "report.xml"])
        #expect(result.status == 1)
        let xml = try String(contentsOf: folder.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"2\" failures=\"1\""))
        #expect(xml.contains("name=\"s/alpha.kvo\""))
        #expect(xml.contains("<failure message=\"output differs from the .out file\">"))
        #expect(xml.contains("+&lt;2&gt;"))
    }

    @Test func aGoldenThatNeverEndsFailsInsteadOfHanging() throws {
        let folder = try Folder()
        try folder.write("s/loop.kvo", "var i = 0\nwhile true { i += 1 }\n")
        try folder.write("s/loop.out", "\n")
        let result = try CLI.run(["test", "s"], in: folder.url, timeout: 120)
        #expect(result.status == 1)
        #expect(result.out.contains("more than \(Golden.maxStepsPerScenario) statements executed"))
    }

    @Test func goldenFilesWithCRLFLineEndingsMatch() throws {
        let folder = try Folder()
        try folder.write("s/crlf.kvo", "print(1)\nprint(2)\n")
        try folder.write("s/crlf.out", "1\r\n2\r\n")
        let result = try folder.run(["test", "s"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func diffsArePaintedOnlyOnRequest() {
        let painted = TestCommand.painted("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n z")
        #expect(painted.contains("\u{1B}[31m-x"))
        #expect(painted.contains("\u{1B}[32m+y"))
        #expect(painted.hasSuffix("\n z"))
    }

    // MARK: Reading files

    @Test func aByteOrderMarkIsSkipped() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("bom.kvo")
        try Data([0xEF, 0xBB, 0xBF] + Array("print(1)\n".utf8)).write(to: path)
        let result = try folder.run(["bom.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1\n")
    }

    @Test func invalidUTF8IsAnErrorWithItsLineAndColumn() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("bad.kvo")
        try Data(Array("print(1)\nprint(\"a".utf8) + [0xFF] + Array("b\")\n".utf8)).write(to: path)
        let result = try folder.run(["bad.kvo"])
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(
            result.err == "bad.kvo:2:9: error: invalid UTF-8 (byte 0xFF); scenarios are UTF-8: save the file as UTF-8\n"
        )
    }

    @Test func crlfFilesShowTheRightLineAndCaret() throws {
        let folder = try Folder()
        try folder.write("crlf.kvo", "print(1)\r\nprint(zz)\r\nprint(3)\r\n")
        let result = try folder.run(["crlf.kvo"])
        #expect(result.status == 2)
        #expect(result.err == "crlf.kvo:2:7: error: cannot find 'zz' in scope\nprint(zz)\n      ^~\n")
    }

    @Test func aDirectoryOrAnUnreadableFileIsNamed() throws {
        let folder = try Folder()
        try folder.write("sub/x.kvo", "print(1)\n")
        let directory = try folder.run(["sub"])
        #expect(directory.status == 64)
        #expect(directory.err == "kvo-run: cannot read 'sub': it is a directory\n")
        let locked = try folder.write("locked.kvo", "print(1)\n")
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        if getuid() != 0 {
            let result = try folder.run(["locked.kvo"])
            #expect(result.status == 64)
            #expect(result.err == "kvo-run: cannot read 'locked.kvo': Permission denied\n")
        }
    }
}
