import _KVOTestSupport
import KVORun
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 15, "Hostile inputs": data loss, odd folders, hostile input and
/// output. Each case runs the real `kvo-run` through bash under
/// `timeout -s KILL` (a hung run is killed, never waited for: before the
/// fixes several of these blocked forever), in a fresh folder.
enum Hostile {
    /// Per-run limit; `timeout` kills with status 137.
    static let seconds = 20

    struct Result: CustomStringConvertible {
        var status: Int32
        var out: String
        var err: String
        var timedOut: Bool { status == 137 || status == 124 }
        var description: String { "status \(status)\n--- stdout\n\(out.prefix(3000))\n--- stderr\n\(err.prefix(3000))" }
    }

    /// Runs `script` with bash in `folder`; `$KVO` is the kvo-run binary,
    /// wrapped in `timeout -s KILL`. stdout and stderr go to files, read back
    /// up to 4 MB each.
    static func bash(_ script: String, in folder: Folder, seconds: Int = seconds) throws -> Result {
        guard let binary = CLI.binary else { throw CLI.Failure("kvo-run not found (see CLI.binary)") }
        let environment = ChildProcess.quietEnvironment([
            "KVO": "timeout -s KILL \(seconds) \(binary.path)", "KVO_BIN": binary.path,
        ])
        // The timeout inside the script bounds the run; this one is a backstop.
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: folder.url, environment: environment,
            timeout: TimeInterval(seconds * 3 + 30), readBack: .upTo(Adversarial.readLimit))
        if outcome.killed != nil { throw CLI.Failure("bash -c \(script) did not finish") }
        return Result(status: outcome.status, out: outcome.out, err: outcome.err)
    }

    static var isRoot: Bool { getuid() == 0 }

    static func contents(_ folder: Folder, _ name: String) -> String? {
        try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
    }

    /// Handler recursion that stops by itself at `depth` notifications.
    static func recursion(depth: Int) -> String {
        """
        class Counter {
            var value: Int = 0
            func observeValue(keyPath, object, change, context) {
                if value < \(depth) { value = value + 1 }
            }
        }
        let c = Counter()
        c.addObserver(c, forKeyPath: "value", options: [.new])
        c.value = 1

        """
    }
}

@Suite(.serialized) struct HostileIOTests {
    typealias H = Hostile

    // MARK: 1. --update never writes a read error over a golden

    @Test func updateNeverReplacesTheGoldenOfADanglingScenario() throws {
        let folder = try Folder()
        try folder.write("good.kvo", "print(1)\n")
        try folder.write("good.out", "stale\n")
        try folder.write("gone.out", "keep me\n")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("gone.kvo").path,
            withDestinationPath: "nowhere.kvo")
        let result = try H.bash("$KVO test --update .", in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(H.contents(folder, "gone.out") == "keep me\n")
        #expect(H.contents(folder, "good.out") == "1\n")
        #expect(
            result.out.contains("FAIL ./gone.kvo\ncannot read './gone.kvo': No such file or directory"), "\(result)")
        #expect(result.out.hasSuffix("1 updated, 1 failed\n"), "\(result)")
    }

    @Test func updateLeavesAFolderNamedLikeAScenarioAlone() throws {
        let folder = try Folder()
        try folder.write("odd.kvo/inner.kvo", "print(2)\n")
        try folder.write("odd.kvo/inner.out", "2\n")
        try folder.write("odd.out", "keep me\n")
        let result = try H.bash("$KVO test --update .", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(H.contents(folder, "odd.out") == "keep me\n")
        #expect(result.out == "1 updated, 0 failed\n", "\(result)")
    }

    @Test func updateNeverReplacesTheGoldenOfAnUnreadableScenario() throws {
        // chmod 000 does not stop root from reading: the case needs a user.
        guard !H.isRoot else { return }
        let folder = try Folder()
        let path = try folder.write("locked.kvo", "print(1)\n")
        try folder.write("locked.out", "keep me\n")
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        let result = try H.bash("$KVO test --update .", in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(H.contents(folder, "locked.out") == "keep me\n")
        #expect(result.out.contains("Permission denied"), "\(result)")
    }

    // MARK: 2. Goldens are written atomically

    /// Written in place, both names of a hard-linked golden would change; a
    /// temporary file renamed over the name leaves the other link alone, and
    /// keeps the old file's permissions. No temporary file is left behind.
    @Test func goldensAreReplacedByRenameNotRewrittenInPlace() throws {
        let folder = try Folder()
        try folder.write("s.kvo", "print(3)\n")
        let golden = try folder.write("s.out", "old\n")
        chmod(golden, 0o640)
        let other = folder.url.appendingPathComponent("other-link").path
        #expect(link(golden, other) == 0)
        let result = try H.bash("$KVO test --update s.kvo", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(H.contents(folder, "s.out") == "3\n")
        #expect(H.contents(folder, "other-link") == "old\n")
        var info = stat()
        #expect(stat(golden, &info) == 0 && info.st_mode & 0o777 == 0o640)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            !$0.hasPrefix(".hostile")
        }
        #expect(names.sorted() == ["other-link", "s.kvo", "s.out"])
    }

    // MARK: 3. Write errors are reported

    @Test func aFullStandardOutputFailsTheRun() throws {
        let folder = try Folder()
        try folder.write("p.kvo", "print(1)\n")
        try folder.write("p.out", "1\n")
        let result = try H.bash("$KVO p.kvo > /dev/full", in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(result.err.contains("kvo-run: cannot write standard output: No space left on device"), "\(result)")
        let check = try H.bash("$KVO check --format json p.kvo > /dev/full; echo \"json check $?\" >&2", in: folder)
        #expect(check.err.contains("json check 0"), "nothing to write: \(check)")
        let tests = try H.bash("$KVO test . > /dev/full", in: folder)
        #expect(tests.status == 1 && tests.err.contains("cannot write standard output"), "\(tests)")
    }

    /// Issue 26: pictures, help, the version and the completion scripts
    /// written to a full device exited 0 with nothing written. Every command
    /// now fails with the reason and status 1 (`OutputCheck` at exit).
    @Test func everyCommandFailsOnAFullStandardOutput() throws {
        let folder = try Folder()
        try folder.write(
            "p.kvo",
            "class A { var n: Int = 0 }\nlet a = A()\nlet b = A()\n"
                + "a.addObserver(b, forKeyPath: \"n\", options: [.new])\na.n = 1\n")
        for command in [
            "graph p.kvo", "trace p.kvo", "--help", "help", "run --help", "graph --help", "--version",
            "--generate-completion-script bash", "--generate-completion-script zsh",
            "--generate-completion-script fish", "p.kvo", "--format json p.kvo",
        ] {
            let result = try H.bash("$KVO \(command) > /dev/full", in: folder)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(
                result.err.hasSuffix("kvo-run: cannot write standard output: No space left on device\n"),
                "\(command): \(result)")
            // Said once, however many places noticed.
            #expect(
                result.err.components(separatedBy: "cannot write standard output").count == 2, "\(command): \(result)")
        }
        // Written where it can be, they still succeed.
        let fine = try H.bash("$KVO --version > v && $KVO --help > h && $KVO graph p.kvo > g", in: folder)
        #expect(fine.status == 0 && (H.contents(folder, "g") ?? "").hasPrefix("digraph"), "\(fine)")
    }

    /// With SIGPIPE ignored, writing into a closed pipe fails with EPIPE: an
    /// endless print loop must stop instead of looping forever.
    @Test func anEndlessPrintLoopIntoAClosedPipeStops() throws {
        let folder = try Folder()
        try folder.write("loop.kvo", "while true { print(1) }\n")
        let result = try H.bash("trap '' PIPE; $KVO loop.kvo | head -1; echo \"kvo-run ${PIPESTATUS[0]}\"", in: folder)
        #expect(result.out == "1\nkvo-run 1\n", "\(result)")
        #expect(result.err.contains("kvo-run: cannot write standard output: Broken pipe"), "\(result)")
    }

    @Test func replSaveToAFullDeviceSaysItFailed() throws {
        let terminal = try Terminal(environment: ["KVO_HISTORY": ""])
        terminal.expect("kvo> ")
        terminal.send("print(1)\r")
        terminal.expect("1\r\n")
        terminal.clear()
        terminal.send(":save /dev/full\r")
        terminal.expect("cannot write '/dev/full': No space left on device")
        #expect(!terminal.transcript.contains("saved"))
        terminal.send(":quit\r")
        #expect(terminal.wait() == 0)
    }

    // MARK: 4, 5. Odd folders

    /// Before: each loop doubled the walk (one scenario ran 41 times with
    /// two loops); now each folder is entered once and each file listed once.
    @Test func symlinkLoopsRunEachScenarioOnce() throws {
        let folder = try Folder()
        try folder.write("tree/a/s.kvo", "print(1)\n")
        try folder.write("tree/a/s.out", "1\n")
        let a = folder.url.appendingPathComponent("tree/a").path
        try FileManager.default.createSymbolicLink(atPath: a + "/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: a + "/again", withDestinationPath: "../a")
        try FileManager.default.createSymbolicLink(atPath: a + "/self", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: a + "/same.kvo", withDestinationPath: "s.kvo")
        let result = try H.bash("$KVO test tree tree/a tree/a/s.kvo", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1 passed, 0 failed\n", "\(result)")
    }

    /// Issue 26: `kvo-run test` wrote the raw ESC of a file name to the
    /// terminal, and reported a name that is not UTF-8 as "No such file".
    /// Names are handled by their bytes and shown escaped.
    @Test func testShowsHostileNamesEscapedAndRunsNamesThatAreNotUTF8() throws {
        let folder = try Folder()
        let result = try H.bash(
            """
            mkdir t
            printf 'print(1)\\n' > "t/$(printf 'a\\033[31mred.kvo')"
            printf 'print(2)\\n' > "t/$(printf 'b\\377.kvo')"
            printf '2\\n' > "t/$(printf 'b\\377.out')"
            $KVO test t; echo "status $?"
            $KVO test "t/$(printf 'b\\377.kvo')"; echo "status $?"
            $KVO "t/$(printf 'b\\377.kvo')"
            """, in: folder)
        #expect(!result.out.unicodeScalars.contains { $0.value == 0x1B }, "\(result)")
        #expect(
            result.out.hasPrefix(
                "FAIL t/a\\u{1B}[31mred.kvo\nmissing t/a\\u{1B}[31mred.out; create it with "
                    + "'kvo-run test --update t/a\\u{1B}[31mred.kvo'\n"), "\(result)")
        #expect(result.out.contains("1 passed, 1 failed\nstatus 1\n1 passed, 0 failed\nstatus 0\n2\n"), "\(result)")
        let missing = try H.bash("rm \"t/$(printf 'b\\377.out')\"; $KVO test t", in: folder)
        #expect(missing.out.contains("FAIL t/b\\x{FF}.kvo\nmissing t/b\\x{FF}.out"), "\(missing)")
        let update = try H.bash("$KVO test --update t; ls t | od -c | head -3", in: folder)
        #expect(update.out.contains("2 updated, 0 failed"), "\(update)")
        #expect(update.out.contains("377   .   o   u   t"), "the golden is written under the same bytes: \(update)")
    }

    @Test func aFIFOInAFolderIsSkipped() throws {
        let folder = try Folder()
        try folder.write("t/s.kvo", "print(1)\n")
        try folder.write("t/s.out", "1\n")
        #expect(mkfifo(folder.url.appendingPathComponent("t/pipe.kvo").path, 0o644) == 0)
        let result = try H.bash("$KVO test t", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1 passed, 0 failed\n", "\(result)")
    }

    @Test func aFIFONamedOnTheCommandLineIsAFailureNotAHang() throws {
        let folder = try Folder()
        #expect(mkfifo(folder.url.appendingPathComponent("pipe.kvo").path, 0o644) == 0)
        try folder.write("pipe.out", "keep me\n")
        let result = try H.bash("$KVO test --update pipe.kvo", in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(result.out.contains("cannot read 'pipe.kvo': it is a FIFO, not a regular file"), "\(result)")
        #expect(H.contents(folder, "pipe.out") == "keep me\n")
    }

    /// `kvo-run FIFO` still reads a pipe: `kvo-run <(generate)` is a FIFO too.
    @Test func runStillReadsAPipe() throws {
        let folder = try Folder()
        let result = try H.bash("$KVO <(echo 'print(7)')", in: folder)
        #expect(result.status == 0 && result.out == "7\n", "\(result)")
    }

    // MARK: 6. Captured output is capped

    @Test func aLoopingGoldenScenarioIsCutAndFails() throws {
        let folder = try Folder()
        try folder.write("loop.kvo", "while true { print(\"0123456789abcdef\") }\n")
        try folder.write("loop.out", "keep me\n")
        let result = try H.bash("$KVO test --update loop.kvo", in: folder, seconds: 120)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.out.contains("loop.kvo: the scenario printed more than 16 MiB; its output was cut there"),
            "\(result)")
        #expect(H.contents(folder, "loop.out") == "keep me\n")
    }

    // MARK: 7. Source size is capped

    @Test func devZeroAsASourceStopsWithAnError() throws {
        let folder = try Folder()
        for (command, name) in [
            ("$KVO /dev/zero", "/dev/zero"), ("$KVO - < /dev/zero", "<stdin>"),
            ("$KVO < /dev/zero", "<stdin>"), ("$KVO check /dev/zero", "/dev/zero"),
        ] {
            let result = try H.bash(command, in: folder)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.err
                    == "kvo-run: cannot read '\(name)': it is larger than 8 MiB, the most kvo-run reads; split it into smaller files\n",
                "\(command): \(result)")
        }
    }

    @Test func aSourceJustOverTheLimitIsRefusedAndOneAtTheLimitRuns() throws {
        let folder = try Folder()
        let limit = 8 << 20
        let head = "print(1)\n"
        try folder.write("at.kvo", head + String(repeating: " ", count: limit - head.utf8.count))
        try folder.write("over.kvo", head + String(repeating: " ", count: limit - head.utf8.count + 1))
        let at = try H.bash("$KVO at.kvo", in: folder)
        #expect(at.status == 0 && at.out == "1\n", "\(at)")
        let over = try H.bash("$KVO over.kvo; cat over.kvo | $KVO -", in: folder)
        #expect(over.out.isEmpty, "\(over)")
        #expect(
            over.err
                == "kvo-run: cannot read 'over.kvo': it is larger than 8 MiB, the most kvo-run reads; split it into smaller files\n"
                + "kvo-run: cannot read '<stdin>': it is larger than 8 MiB, the most kvo-run reads; split it into smaller files\n",
            "\(over)")
    }

    // MARK: 8. Diagnostics escape control characters

    @Test func aBinaryFilesDiagnosticsEchoNoControlBytes() throws {
        let source: [UInt8] = Array("let x = 1\nlet y = \u{1B}[2J\u{202E}@\n".utf8)
        let result = try Adversarial.check(bytes: source, .scriptError)
        #expect(!result.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(result)")
        #expect(result.err.contains("let y = \\u{1B}[2J\\u{202E}@\n"), "\(result)")
        // The caret still points at the ESC, and its message names it escaped.
        #expect(
            result.err.contains(
                "adv.kvo:2:9: error: unexpected character U+1B in the scenario\nlet y = \\u{1B}[2J\\u{202E}@\n        ^~~~~~\n"
            ),
            "\(result)")
    }

    @Test func runtimeErrorsQuotingStringsEscapeThem() throws {
        let result = try Adversarial.check("let s = \"\\u{1B}]0;title\\u{7}\"\nassert(false, s)\n", .runtimeError)
        #expect(!result.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result)")
        #expect(result.err.contains("\\u{1B}]0;title\\u{7}"), "\(result)")
    }

    // MARK: 9. Strings in change dictionaries and traces

    static let controlScenario = """
        class A { var s: String = "" }
        class O { }
        let a = A()
        let o = O()
        a.addObserver(o, forKeyPath: "s", options: [.new, .old])
        a.s = "a\\rb\\0c\\u{1B}[31md\\u{202E}e\\u{7F}f\\u{85}g\\u{2067}h\\ti\\nj"
        print("raw:\\u{1B}[0m")
        print([a.s])
        a.addObserver(o, forKeyPath: "k\\u{1B}", options: [])
        a.willChangeValue(forKey: "k\\u{1B}")
        a.didChangeValue(forKey: "k\\u{1B}")
        print(a.value(forKey: "\\u{1B}x"))

        """

    /// Decided and pinned: `print` of a plain string writes it raw (the user
    /// asked for those bytes); change dictionaries, collections and exception
    /// lines, which kvo-run composes, show control and bidi characters escaped
    /// (inside descriptions with NSArray's escapes, SPEC §3).
    @Test func changeDictionariesEscapeControlCharactersAndPrintStaysRaw() throws {
        let result = try Adversarial.check(Self.controlScenario, .exception)
        let expected =
            #"a.s → o {kind = 1; new = "a\rb\000c\033[31md\U202ee\177f\U0085g\U2067h\ti\nj"; old = ""}"#
        #expect(result.outLines.first == expected, "\(result)")
        #expect(result.outLines.dropFirst().first == "raw:\u{1B}[0m", "\(result)")
        #expect(
            result.outLines.dropFirst(2).first == #"("a\rb\000c\033[31md\U202ee\177f\U0085g\U2067h\ti\nj")"#,
            "\(result)")
        #expect(result.outLines.dropFirst(3).first == #"a.k\u{1B} → o {kind = 1}"#, "\(result)")
        // Raw ESC appears exactly once in the whole output: the print.
        #expect(result.out.unicodeScalars.filter { $0.value == 0x1B }.count == 1, "\(result)")
        #expect(
            result.out.contains(
                "*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<A a> valueForUndefinedKey:]: this class is not key value coding-compliant for the key \\u{1B}x.'"
            ),
            "\(result)")
    }

    @Test func jsonEscapesControlAndBidiCharacters() throws {
        // An uncaught exception is an event on stdout here, not a Terminating line.
        let result = try Adversarial.run(Array(Self.controlScenario.utf8), arguments: ["--format", "json"])
        #expect(!result.crashed && result.status == 1, "\(result)")
        // The key "\u{1B}x" is no key of A: its check-time warning (SPEC §9)
        // comes first, the key escaped. ("k\u{1B}" is no key of A either,
        // but the scenario posts it by hand: its own key, no typo.)
        #expect(
            result.outLines.first
                == #"{"event":"warning","message":"A has no key '\u001bx' (Apple raises NSUnknownKeyException when this runs)","line":12,"column":23,"file":"adv.kvo"}"#,
            "\(result)")
        let first = try #require(result.outLines.dropFirst(1).first)
        #expect(first.contains(#""new":"a\rb\u0000c\u001b[31md\u202ee\u007ff\u0085g\u2067h\ti\nj""#), "\(result)")
        #expect(
            result.outLines.dropFirst(2).first == #"{"event":"print","text":"raw:\u001b[0m","depth":0}"#, "\(result)")
        #expect(result.out.contains(#""keyPath":"k\u001b""#), "\(result)")
        #expect(!result.out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(result)")
    }

    // MARK: 10. Flat chains are not nesting

    @Test func aFlat300TermSumRuns() throws {
        let result = try Adversarial.check(
            "let x = " + Array(repeating: "1", count: 300).joined(separator: " + ") + "\nprint(x)\n", .success)
        #expect(result.out == "300\n")
    }

    @Test func a300BranchElseIfChainRuns() throws {
        var source = "let v = 299\nif v == 0 { print(0) }"
        for branch in 1..<300 { source += " else if v == \(branch) { print(\(branch)) }" }
        source += " else { print(-1) }\n"
        let result = try Adversarial.check(source, .success)
        #expect(result.out == "299\n")
        let fallThrough = try Adversarial.check(
            source.replacingOccurrences(of: "let v = 299", with: "let v = 1000"), .success)
        #expect(fallThrough.out == "-1\n")
    }

    /// Compiled and run in loops: 100,000 terms (and 10,000 else-ifs) cost no
    /// stack, mixed operators keep their precedence, && and || short-circuit.
    @Test func longChainsCompileAndRunWithoutRecursion() throws {
        let sum = "let x = " + Array(repeating: "1", count: 100_000).joined(separator: " + ") + "\nprint(x)\n"
        #expect(try Adversarial.check(sum, .success, timeout: Adversarial.largeInputTimeout).out == "100000\n")
        let mixed = "let x = 1" + String(repeating: " + 2 * 3 - 1", count: 40) + "\nprint(x)\n"
        #expect(try Adversarial.check(mixed, .success).out == "201\n")
        let or =
            "func boom() -> Bool { assert(false, \"evaluated\"); return true }\nlet t = false"
            + String(repeating: " || false", count: 30)
            + " || true || boom()\nprint(t)\nlet f = true" + String(repeating: " && true", count: 30)
            + " && false && boom()\nprint(f)\n"
        #expect(try Adversarial.check(or, .success).out == "true\nfalse\n")
        let overflow =
            "let x = 9223372036854775807" + String(repeating: " - 1", count: 20) + String(repeating: " + 1", count: 30)
            + "\n"
        try Adversarial.check(overflow, .runtimeError, message: "overflow")
        var chain = "let v = 1\nif v == 0 { }"
        for _ in 0..<10_000 { chain += " else if v == 0 { }" }
        chain += " else { print(\"last\") }\n"
        #expect(try Adversarial.check(chain, .success).out == "last\n")
    }

    /// Real nesting keeps its limit, also inside a long flat chain.
    @Test func realNestingKeepsItsLimit() throws {
        let deep =
            "let x = 1 + " + String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300)
            + String(repeating: " + 1", count: 300) + "\n"
        try Adversarial.check(deep, .scriptError, message: Adversarial.nestingLimit)
        let blocks = String(repeating: "if true {\n", count: 300) + String(repeating: "}\n", count: 300)
        try Adversarial.check(blocks, .scriptError, message: Adversarial.nestingLimit)
    }

    // MARK: 11. Indentation is capped

    @Test func deepHandlerOutputIsNotQuadratic() throws {
        let result = try Adversarial.check(H.recursion(depth: 1000), .success, arguments: ["--max-depth", "100000"])
        let lines = result.outLines
        // Depths 0…100 shown, the 899 deeper ones counted in one last line.
        #expect(lines.count == 102, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.utf8.count < 300 }, "longest line \(lines.map(\.utf8.count).max() ?? 0) bytes")
        #expect(lines.dropFirst(100).first == String(repeating: "  ", count: 100) + "c.value → c {kind = 1; new = 101}")
        #expect(
            lines.last == String(repeating: "  ", count: 100)
                + "… 899 lines nested deeper than 100 handlers not shown (--format json shows every event)")
        let json = try Adversarial.check(
            H.recursion(depth: 1000), .success, arguments: ["--max-depth", "100000", "--format", "json"])
        #expect(
            json.outLines.last
                == #"{"event":"notify","object":"c","keyPath":"value","observer":"c","change":{"kind":1,"new":1000},"context":null,"depth":999}"#
        )
    }

    @Test func recursionToTheLargestMaxDepthEndsPromptly() throws {
        // Before: two spaces per level made 100,000 levels about 10 GB of output.
        let source = RecursionLimitTests.recursions[0].1
        let result = try Adversarial.check(
            source, .runtimeError, message: Adversarial.depthExceeded,
            arguments: ["--max-depth", "100000"], timeout: 60)
        let longest = result.outLines.map(\.utf8.count).max() ?? 0
        #expect(longest < 300, "longest line \(longest) bytes")
    }

    // MARK: 12. REPL meta-command arguments are names

    @Test func replInfoTakesANameAndRunsNothing() throws {
        let terminal = try Terminal(environment: ["KVO_HISTORY": ""])
        terminal.expect("kvo> ")
        terminal.send("class A { var n: Int = 0 }\rlet a = A()\rlet number = 3\r")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send(":info 1); print(\"injected\"\r")
        terminal.expect(":info takes the name of a variable holding an object")
        terminal.send(":info a.n\r")
        terminal.expect("'a.n' is not a name")
        terminal.send(":info nope\r")
        terminal.expect("no variable named 'nope'")
        terminal.send(":info number\r")
        terminal.expect("'number' holds Int, not an object")
        terminal.send(":info a\r")
        terminal.expect("nil")
        terminal.send(":reset now\r")
        terminal.expect(":reset takes no argument")
        terminal.send("print(a)\r")
        terminal.expect("<A: a>")
        terminal.send(":quit\r")
        #expect(terminal.wait() == 0)
        #expect(!terminal.transcript.contains("injected\r\n"))
    }

    // MARK: 13. NaN and infinities in JSON

    @Test func jsonWritesNaNAndInfinitiesAsTheTextFormatsWords() throws {
        let source = """
            class A { var d: Double = 0 }
            class O { }
            let a = A()
            let o = O()
            a.addObserver(o, forKeyPath: "d", options: [.new, .old])
            let zero = 0.0
            a.d = zero / zero
            a.d = 1.0 / zero
            a.d = -1.0 / zero
            print([zero / zero])

            """
        let json = try Adversarial.check(source, .success, arguments: ["--format", "json"])
        #expect(
            json.outLines == [
                #"{"event":"notify","object":"a","keyPath":"d","observer":"o","change":{"kind":1,"new":"nan","old":0},"context":null,"depth":0}"#,
                #"{"event":"notify","object":"a","keyPath":"d","observer":"o","change":{"kind":1,"new":"inf","old":"nan"},"context":null,"depth":0}"#,
                #"{"event":"notify","object":"a","keyPath":"d","observer":"o","change":{"kind":1,"new":"-inf","old":"inf"},"context":null,"depth":0}"#,
                #"{"event":"print","text":"(nan)","depth":0}"#,
            ])
        let text = try Adversarial.check(source, .success)
        #expect(text.outLines.first == "a.d → o {kind = 1; new = nan; old = 0}")
    }
}
