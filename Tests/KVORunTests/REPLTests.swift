import _KVOTestSupport
import KVORun
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Drives `kvo-run` in a pseudo-terminal, as a person at a keyboard would.
final class Terminal {
    let master: Int32
    let pid: pid_t
    /// Everything the program has written so far.
    private(set) var transcript = ""

    init(arguments: [String] = [], environment: [String: String]) throws {
        guard let binary = CLI.binary else { throw CLI.Failure("kvo-run not built") }
        var master: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["TERM"] = "dumb"
        env.removeValue(forKey: "NO_COLOR")
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let pid = forkpty(&master, nil, nil, &size)
        if pid == 0 {
            execve(binary.path, argv, envp)
            _exit(127)
        }
        guard pid > 0 else { throw CLI.Failure("forkpty failed") }
        self.master = master
        self.pid = pid
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until `text` has appeared after `from` (an offset in the
    /// transcript), or fails after `timeout` seconds.
    @discardableResult
    func expect(_ text: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if transcript.contains(text) { return true }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                transcript += String(decoding: buffer[0..<count], as: UTF8.self)
            }
        }
        if transcript.contains(text) { return true }
        Issue.record(
            "timed out waiting for \(text.debugDescription); got:\n\(transcript)", sourceLocation: sourceLocation)
        return false
    }

    /// Forgets what has been read, so the next `expect` looks only at new output.
    func clear() { transcript = "" }

    /// Waits for the program to exit and returns its status.
    func wait(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            // Keep draining so the child never blocks on a full terminal.
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) > 0 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { transcript += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
        }
        kill(pid, SIGKILL)
        return nil
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }
}

@Suite(.serialized) struct REPLTests {
    let folder: URL
    let history: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        history = folder.appendingPathComponent("history").path
    }

    func start() throws -> Terminal {
        let terminal = try Terminal(environment: ["KVO_HISTORY": history])
        terminal.expect("kvo> ")
        return terminal
    }

    let classes = "class Account { var balance: Double = 0 }\rclass Person { var account: Account? }\r"

    @Test func historyPersistsAcrossSessions() throws {
        let first = try start()
        first.send("let remembered = 42\r")
        first.expect("kvo> ")
        first.send(":quit\r")
        #expect(first.wait() == 0)
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("let remembered = 42"))

        let second = try start()
        second.clear()
        second.send("\u{1B}[A")  // up arrow: the previous session's last entry
        second.expect(":quit")
        second.send("\u{1B}[A")
        second.expect("let remembered = 42")
    }

    @Test func aMultiLineEntryComesBackWholeAfterARestart() throws {
        let first = try start()
        first.send("let before = 1\r")
        first.send("class Kept {\r")
        first.send("var n: Int = 0\r")
        first.send("}\r")
        first.expect("kvo> ")
        first.send(":quit\r")
        #expect(first.wait() == 0)

        let second = try start()
        second.send("\u{1B}[A\u{1B}[A")  // past :quit, to the class
        second.send("\r")
        second.send("print(Kept(n: 4).n)\r")
        second.expect("\n4")
        second.clear()
        second.send(String(repeating: "\u{1B}[A", count: 5))  // past the print, both classes and :quit
        second.expect("let before = 1")
    }

    @Test func tabCompletesAPropertyAfterADot() throws {
        let terminal = try start()
        terminal.send(classes + "let acct = Account()\r")
        terminal.expect("let acct = Account()")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("acct.bal\t")
        terminal.expect("acct.balance")
        terminal.send(" = 12\rprint(acct.balance)\r")
        terminal.expect("12\r\n")
    }

    @Test func tabCompletesKeysInsideAForKeyPathString() throws {
        let terminal = try start()
        terminal.send(classes + "let p = Person(account: Account())\r")
        terminal.expect("let p = Person")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("p.addObserver(p, forKeyPath: \"acc\t")
        terminal.expect("\"account.")
        terminal.send("bal\t")
        terminal.expect("\"account.balance\"")
        terminal.send(", options: [.new])\rp.account.balance = 3\r")
        terminal.expect("p.account.balance → p {kind = 1; new = 3}")
    }

    @Test func aClassTypedOverSeveralLines() throws {
        let terminal = try start()
        terminal.send("class Counter {\r")
        terminal.expect("...> ")
        terminal.send("    var value: Int = 0\r")
        terminal.expect("...> ")
        terminal.send("}\r")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("let c = Counter(value: 5)\rprint(c.value + 1)\r")
        terminal.expect("6\r\n")
    }

    @Test func anExceptionThenTheSameObjectsGoOn() throws {
        let terminal = try start()
        terminal.send(classes + "let acct = Account()\rlet alice = Person()\r")
        terminal.send("acct.addObserver(alice, forKeyPath: \"balance\", options: [.new])\r")
        terminal.send("acct.removeObserver(alice, forKeyPath: \"nope\")\r")
        terminal.expect("uncaught exception 'NSRangeException'")
        terminal.clear()
        terminal.send("acct.balance = 9\r")
        terminal.expect("acct.balance → alice {kind = 1; new = 9}")
    }

    @Test func controlCInterruptsARunningLoopAndKeepsState() throws {
        let terminal = try start()
        terminal.send("var i = 0\rwhile true { i = i + 1 }\r")
        terminal.expect("while true")
        Thread.sleep(forTimeInterval: 0.5)
        terminal.send("\u{03}")  // Ctrl-C
        terminal.expect("interrupted")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("print(i > 0)\r")
        terminal.expect("true\r\n")
    }

    @Test func controlCAbandonsAPendingBlock() throws {
        let terminal = try start()
        terminal.send("class Broken {\r")
        terminal.expect("...> ")
        terminal.send("\u{03}")
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("print(\"fresh\")\r")
        terminal.expect("fresh\r\n")
        #expect(!terminal.transcript.contains("error"))
    }

    @Test func controlDOnAnEmptyLineExitsWithZero() throws {
        let terminal = try start()
        terminal.send("\u{04}")
        #expect(terminal.wait() == 0)
    }

    @Test func savedSessionReplaysTheSameNotifications() throws {
        let terminal = try start()
        let file = folder.appendingPathComponent("saved.kvo").path
        terminal.send(classes + "let acct = Account()\rlet alice = Person()\r")
        terminal.send("acct.addObserver(alice, forKeyPath: \"balance\", options: [.new, .old])\r")
        terminal.send("acct.balance = 1\r")
        terminal.send("acct.removeObserver(alice, forKeyPath: \"nope\")\r")
        terminal.send("acct.balance = 2\r")
        terminal.send("let oops = \r")
        terminal.send("1\r")
        terminal.expect("acct.balance → alice {kind = 1; new = 2; old = 1}")
        terminal.send(":save \(file)\r")
        // Not just "saved": the echoed command holds "saved.kvo", and the
        // file is only there once the message is (it is synced and renamed).
        terminal.expect(" to \(file)")
        let replay = try CLI.run([file])
        let notifications = replay.outLines.filter { $0.contains("→") }
        #expect(
            notifications == [
                "acct.balance → alice {kind = 1; new = 1; old = 0}",
                "acct.balance → alice {kind = 1; new = 2; old = 1}",
            ])
    }

    @Test func metaCommandsAcceptPrefixesAndPointToHelp() throws {
        let terminal = try start()
        terminal.send(classes + "let acct = Account()\rlet alice = Person()\r")
        terminal.send("acct.addObserver(alice, forKeyPath: \"balance\")\r")
        terminal.send(":obj\r")
        terminal.expect("acct: <Account: acct>, observed (1 observance)")
        terminal.send(":cl\r")
        terminal.expect("Account: NSObject { balance: Double }")
        terminal.send(":info acct\r")
        terminal.expect("<NSKeyValueObservance acct[0]: Observer: alice, Key path: balance")
        terminal.send(":frobnicate\r")
        terminal.expect("unknown command ':frobnicate'; type :help for the list")
        terminal.send(":reset\r")
        terminal.expect("session reset")
        terminal.clear()
        terminal.send("print(acct)\r")
        terminal.expect("cannot find 'acct' in scope")
        terminal.send(":q\r")
        #expect(terminal.wait() == 0)
    }
}
