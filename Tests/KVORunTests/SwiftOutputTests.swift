import Foundation
import Testing
import _KVOTestSupport
import KVOScript
@testable import KVORun
@testable import KVOOutput

/// A compiled Swift program (SPEC §11.0) writes through the same output code
/// as a scenario (KVOOutput): `--explain` in text and JSON, `--stats`,
/// `--quiet`, and `kvo-run graph` / `kvo-run trace` give what the scenario
/// written in the scenario language gives, where the semantics agree.
@Suite(.serialized) struct SwiftOutputTests {
    /// A Swift program and its scenario twin, line for line: the same
    /// objects, observers and changes on the same lines, so that the trace's
    /// statement arrows name the same lines. Line 1 is the import, or a comment.
    static let swiftProgram = """
        import Foundation
        class Account: NSObject { @objc dynamic var balance: Double = 0; @objc dynamic var fee: Double = 0 }
        class Person: NSObject { override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {} }
        let acct = Account()
        let alice = Person()
        acct.balance = 1
        acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old, .prior], context: nil)
        acct.fee = 2
        let token = acct.observe(\\.fee, options: [.new]) { account, change in print("fee") }
        acct.fee = 3
        token.invalidate()
        acct.fee = 4
        acct.balance = 5
        acct.removeObserver(alice, forKeyPath: "balance")
        acct.balance = 6

        """

    static let scenario = """
        // The scenario language's twin of swiftProgram.
        class Account { var balance: Double = 0; var fee: Double = 0 }
        class Person { }
        let acct = Account()
        let alice = Person()
        acct.balance = 1
        acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old, .prior])
        acct.fee = 2
        let token = acct.observe(\\.fee, options: [.new]) { account, change in print("fee") }
        acct.fee = 3
        token.invalidate()
        acct.fee = 4
        acct.balance = 5
        acct.removeObserver(alice, forKeyPath: "balance")
        acct.balance = 6

        """

    /// Where the two runs differ on purpose: a Swift class's Objective-C name
    /// is `main.Account`, and KVO's subclass of it `..NSKVONotifying_main.Account`
    /// (SPEC §11.1, §11.4).
    static func asSwiftNames(_ text: String) -> String {
        text.replacingOccurrences(
            of: "class Account is replaced by the generated subclass NSKVONotifying_Account",
            with: "class main.Account is replaced by the generated subclass ..NSKVONotifying_main.Account"
        )
        .replacingOccurrences(of: "acct's class is Account again", with: "acct's class is main.Account again")
        .replacingOccurrences(of: "\"from\":\"Account\"", with: "\"from\":\"main.Account\"")
        .replacingOccurrences(
            of: "\"from\":\"NSKVONotifying_Account\"", with: "\"from\":\"..NSKVONotifying_main.Account\""
        )
        .replacingOccurrences(
            of: "\"to\":\"NSKVONotifying_Account\"", with: "\"to\":\"..NSKVONotifying_main.Account\""
        )
        .replacingOccurrences(of: "\"to\":\"Account\"", with: "\"to\":\"main.Account\"")
    }

    /// The lines of `text` that are `--explain` steps (text) or events (JSON).
    static func explainLines(_ text: String, json: Bool) -> [Substring] {
        text.split(separator: "\n").filter { json ? $0.hasPrefix("{\"event\":\"explain\"") : $0.hasPrefix("#") }
    }

    @Test func explainOfASwiftProgramIsTheScenarios() {
        var settings = SwiftProgram.Settings()
        settings.explain = true
        let swift = SwiftProgramTests.run(Self.swiftProgram, settings: settings)
        #expect(swift.status == 0, "\(swift.text)")
        var options = RunOptions()
        options.explain = true
        let scenario = runInterleaved(Self.scenario, options: options)
        #expect(scenario.status == 0)
        let expected = Self.explainLines(Self.asSwiftNames(scenario.text), json: false)
        #expect(Self.explainLines(swift.text, json: false) == expected)
        // Each kind of step a Swift assignment and a token take part in.
        for step in [
            "# acct.balance set: nobody is told, nobody observes acct",
            "# change of acct.fee (kind 1, setting), automatic: KVO wraps the setter in willChange/didChange",
            "# acct.fee: nobody is told, no observance of acct depends on fee",
            "# will: acct[0] (alice observes balance) asked for .prior: told now, before the change",
            "# token of observe(\\.fee) on acct invalidated: its observer is removed",
            "# acct.fee set: nobody is told, the observe(\\.fee) token was invalidated",
        ] {
            #expect(swift.text.contains(step + "\n"), "no step '\(step)' in\n\(swift.text)")
        }
    }

    @Test func jsonExplainEventsOfASwiftProgramAreTheScenarios() {
        var settings = SwiftProgram.Settings()
        settings.explain = true
        settings.format = .json
        let swift = SwiftProgramTests.run(Self.swiftProgram, settings: settings)
        #expect(swift.status == 0, "\(swift.text)")
        var options = RunOptions()
        options.explain = true
        let scenario = runInterleaved(Self.scenario, options: options, format: .json)
        let expected = Self.explainLines(Self.asSwiftNames(scenario.text), json: true)
        #expect(!expected.isEmpty)
        #expect(Self.explainLines(swift.text, json: true) == expected)
        #expect(
            swift.text.contains(
                "{\"event\":\"explain\",\"step\":\"silent\",\"object\":\"acct\",\"key\":\"balance\",\"reason\":\"noObservers\",\"depth\":0}\n"
            ))
        // The notifications are the same events too.
        let notifications = { (text: String) in text.split(separator: "\n").filter { $0.contains("\"notify\"") } }
        #expect(notifications(swift.text) == notifications(scenario.text))
    }

    @Test func aReleasedTokenIsExplainedAsReleased() {
        let source = """
            import Foundation
            class Account: NSObject { @objc dynamic var fee: Double = 0 }
            let acct = Account()
            func watchOnce() {
                let local = acct.observe(\\.fee) { account, change in print("seen") }
                acct.fee = 1
            }
            watchOnce()
            acct.fee = 2

            """
        var settings = SwiftProgram.Settings()
        settings.explain = true
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == 0, "\(result.text)")
        #expect(
            result.text.contains(
                "# token of observe(\\.fee) on acct released (nothing holds it any more): its observer is removed\n"))
        #expect(result.text.contains("# acct.fee set: nobody is told, the observe(\\.fee) token was released\n"))
    }

    @Test func aNonDynamicAssignmentIsExplained() {
        let source = """
            import Foundation
            class Account: NSObject { @objc var note: String = "" }
            class Person: NSObject { override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {} }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "note", options: [.new], context: nil)
            acct.note = "x"

            """
        var settings = SwiftProgram.Settings()
        settings.explain = true
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(
            result.text.contains(
                "# acct.note set: nobody is told, note is not @objc dynamic: the assignment runs its setter directly, KVO's subclass never sees it\n"
            ), "\(result.text)")
    }

    @Test func statsAndQuietCountASwiftProgram() throws {
        let folder = try Folder()
        try folder.write("p.swift", Self.swiftProgram)
        let stats = try folder.run(["--stats", "p.swift"])
        #expect(stats.status == 0, "\(stats)")
        #expect(stats.out.contains("acct.balance → alice {kind = 1; new = 5; old = 1}\n"))
        let line = try #require(stats.err.split(separator: "\n").last.map(String.init), "\(stats)")
        // 3 notifications (the token's, balance's prior and after), 3
        // objects (acct, alice, the token).
        #expect(
            line.range(
                of: #"^kvo-run: 3 notifications, 3 objects, \d+ statements, [0-9.]+ ms$"#, options: .regularExpression)
                != nil, "\(line)")
        let quiet = try folder.run(["--quiet", "p.swift"])
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.out == "  fee\n", "the handler's print, at its depth")
        #expect(quiet.err == "kvo-run: 3 notifications (not shown: --quiet)\n")
        // The same counts as the scenario twin.
        try folder.write("p.kvo", Self.scenario)
        let twin = try folder.run(["--quiet", "p.kvo"])
        #expect(twin.err == quiet.err)
    }

    @Test func keepGoingSaysASwiftProgramEndsAtAnUncaughtException() throws {
        let source = """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            let acct = Account()
            print("before")
            acct.value(forKey: "nope")
            print("after")

            """
        var settings = SwiftProgram.Settings()
        settings.keepGoing = true
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == 1)
        #expect(!result.text.contains("after"))
        #expect(
            result.text.contains(
                "program.swift:5:11: note: --keep-going cannot go on in a Swift program: Swift cannot catch an Objective-C exception, so it ends the program, as on a Mac\n"
            ), "\(result.text)")
        // Without --keep-going, nothing is said about it.
        let plain = SwiftProgramTests.run(source)
        #expect(plain.status == 1)
        #expect(!plain.text.contains("--keep-going"))
    }

    /// The picture tests' scenario as a Swift program, line for line.
    static let keyPathProgram = """
        import Foundation
        class Account: NSObject { @objc dynamic var balance: Double = 0 }
        class Person: NSObject { @objc dynamic var account: Account? }
        class Watcher: NSObject { override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) { print("seen <&> \\"it\\"") } }
        let first = Account()
        let second = Account()
        let person = Person()
        person.account = first
        let w = Watcher()
        person.addObserver(w, forKeyPath: "account.balance", options: [.new], context: nil)
        first.balance = 1
        person.account = second
        release(first)
        second.balance = 2
        person.removeObserver(w, forKeyPath: "account.balance")

        """

    static let keyPathScenario = """
        // The scenario language's twin of keyPathProgram.
        class Account { var balance: Double = 0 }
        class Person { var account: Account? }
        class Watcher { func observeValue(keyPath, object, change, context) { print("seen <&> \\"it\\"") } }
        let first = Account()
        let second = Account()
        let person = Person()
        person.account = first
        let w = Watcher()
        person.addObserver(w, forKeyPath: "account.balance", options: [.new])
        first.balance = 1
        person.account = second
        release(first)
        second.balance = 2
        person.removeObserver(w, forKeyPath: "account.balance")

        """

    @Test func theGraphOfASwiftProgramIsTheScenarios() throws {
        let folder = try Folder()
        try folder.write("kp.swift", Self.keyPathProgram)
        try folder.write("kp.kvo", Self.keyPathScenario)
        for at in [nil, "8", "11", "13"] {
            let extra = at.map { ["--at", $0] } ?? []
            let swift = try folder.run(["graph", "kp.swift"] + extra)
            #expect(swift.status == 0, "\(swift)")
            #expect(swift.err == "", "\(swift)")
            let scenario = try folder.run(["graph", "kp.kvo"] + extra)
            #expect(swift.out == scenario.out, "--at \(at ?? "end")")
            #expect(swift.out.hasPrefix("digraph kvo {\n"))
        }
        // Just after line 11: the forwarding observance, as the scenario's.
        let middle = try folder.run(["graph", "kp.swift", "--at", "11"])
        #expect(middle.out.contains("balance, forwarded for person[0] (w)"), "\(middle)")
        let end = try folder.run(["graph", "kp.swift"])
        #expect(end.out.contains("<B>first</B>: Account (released)"))
        #expect(!end.out.contains("forwarded"))
        guard ExternalTool.find("dot") != nil else { return }
        let svg = try folder.run(["graph", "kp.swift", "--at", "11", "-o", "kp.svg"])
        #expect(svg.status == 0, "\(svg)")
        let svgPath = folder.url.appendingPathComponent("kp.svg").path
        #expect(PictureTests().parsesAsXML(try String(contentsOfFile: svgPath, encoding: .utf8)))
        try PictureTests().rendersToAPicture(svgPath, in: folder)
    }

    @Test func aSwiftGraphFollowsObjectsHeldOnlyByProperties() throws {
        // `Account()` made inside the assignment has no binding: it is
        // reached through person's stored property, as a scenario's slot.
        let folder = try Folder()
        try folder.write(
            "held.swift",
            """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            class Person: NSObject { @objc dynamic var account: Account? }
            class Watcher: NSObject { override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {} }
            let person = Person()
            person.account = Account()
            let w = Watcher()
            person.account!.addObserver(w, forKeyPath: "balance", options: [.new], context: nil)

            """)
        try folder.write(
            "held.kvo",
            """
            class Account { var balance: Double = 0 }
            class Person { var account: Account? }
            class Watcher { }
            let person = Person()
            person.account = Account()
            let w = Watcher()
            person.account.addObserver(w, forKeyPath: "balance", options: [.new])

            """)
        let swift = try folder.run(["graph", "held.swift"])
        let scenario = try folder.run(["graph", "held.kvo"])
        #expect(swift.status == 0 && scenario.status == 0, "\(swift)\n\(scenario)")
        #expect(swift.out.contains("<B>Account#1</B>: Account"), "\(swift)")
        #expect(swift.out == scenario.out)
    }

    @Test func theTraceOfASwiftProgramIsTheScenarios() throws {
        let folder = try Folder()
        try folder.write("kp.swift", Self.keyPathProgram)
        try folder.write("kp.kvo", Self.keyPathScenario)
        let swift = try folder.run(["trace", "kp.swift", "-o", "swift.svg"])
        #expect(swift.status == 0, "\(swift)")
        #expect(swift.out == "" && swift.err == "", "the program's prints are drawn, not written: \(swift)")
        let scenario = try folder.run(["trace", "kp.kvo", "-o", "scenario.svg"])
        #expect(scenario.status == 0, "\(scenario)")
        let swiftSVG = try folder.read("swift.svg")
        let scenarioSVG = try folder.read("scenario.svg")
        #expect(
            swiftSVG == scenarioSVG.replacingOccurrences(of: "kvo-run trace kp.kvo", with: "kvo-run trace kp.swift"))
        #expect(PictureTests().parsesAsXML(swiftSVG))
        #expect(swiftSVG.contains(">line 11: first.balance = 1</text>"))
        #expect(swiftSVG.contains("seen &lt;&amp;&gt; &quot;it&quot;"))
        try PictureTests().rendersToAPicture(folder.url.appendingPathComponent("swift.svg").path, in: folder)
    }

    @Test func aPictureOfASwiftProgramThatEndsUncaughtIsStillDrawn() throws {
        let folder = try Folder()
        try folder.write(
            "raise.swift",
            """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            let acct = Account()
            print("not written")
            acct.value(forKey: "nope")

            """)
        let graph = try folder.run(["graph", "raise.swift"])
        #expect(graph.status == 1, "\(graph)")
        #expect(graph.out.contains("<B>acct</B>: Account"))
        #expect(graph.err.hasPrefix("*** Terminating app due to uncaught exception 'NSUnknownKeyException'"))
        #expect(!graph.out.contains("not written") && !graph.err.contains("not written"))
        let trace = try folder.run(["trace", "raise.swift"])
        #expect(trace.status == 1)
        #expect(trace.out.contains("uncaught NSUnknownKeyException"))
    }

    @Test func aSwiftProgramThatTrapsDrawsNothingAndSaysSo() throws {
        let folder = try Folder()
        try folder.write("trap.swift", "import Foundation\nlet n: Int? = nil\nprint(n!)\n")
        let graph = try folder.run(["graph", "trap.swift", "-o", "trap.dot"])
        #expect(graph.status == 1, "\(graph)")
        #expect(
            graph.err.contains(
                "kvo-run: trap.swift: the program ended before its graph could be drawn; nothing was written\n"),
            "\(graph)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("trap.dot").path))
    }

    @Test func aCompileErrorDrawsNothing() throws {
        let folder = try Folder()
        try folder.write("bad.swift", "import Foundation\nlet x: Int = \"no\"\n")
        let trace = try folder.run(["trace", "bad.swift"])
        #expect(trace.status == 2, "\(trace)")
        #expect(trace.out == "")
        #expect(trace.err.hasPrefix("bad.swift:2:14: error: cannot convert value of type 'String'"))
    }

    /// With --format json, what a program writes to its standard output by
    /// itself (FileHandle, stdio, write(2)) becomes `print` events in program
    /// order, so that the stream stays JSON Lines (issue 41, item 7).
    @Test func aProgramsOwnWritesAreJSONPrintEvents() {
        let source = """
            import Foundation
            class Account: NSObject { @objc dynamic var balance = 0 }
            let account = Account()
            let token = account.observe(\\.balance, options: [.new]) { _, _ in
                fputs("in the handler\\n", stdout)
            }
            FileHandle.standardOutput.write("a \\"quoted\\" line\\n".data(using: .utf8)!)
            fputs("fputs", stdout)
            putchar(10)
            account.balance = 1
            print("print")
            fputs("an open line", stdout)
            account.balance = 2
            _ = "write(2)\\tlast".withCString { write(1, $0, strlen($0)) }

            """
        var settings = SwiftProgram.Settings()
        settings.format = .json
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == 0, "\(result.text)")
        let notify = { (value: Int) in
            #"{"event":"notify","object":"account","keyPath":"balance","observer":"token","change":{"kind":1,"new":\#(value)},"context":null,"depth":0}"#
        }
        let print = { (text: String, depth: Int) in #"{"event":"print","text":"\#(text)","depth":\#(depth)}"# }
        let expected = [
            print(#"a \"quoted\" line"#, 0), print("fputs", 0), notify(1), print("in the handler", 1),
            print("print", 0), print("an open line", 0), notify(2), print("in the handler", 1),
            print(#"write(2)\tlast"#, 0),
        ]
        #expect(result.text.split(separator: "\n").map(String.init) == expected, "\(result.text)")
    }

    /// A trap ends the program: the lines it wrote before are events all the same.
    @Test func aProgramsOwnWritesBeforeATrapAreKeptInJSON() {
        let source = """
            import Foundation
            fputs("before the trap\\n", stdout)
            FileHandle.standardOutput.write("written directly\\n".data(using: .utf8)!)
            let values: [Int] = []
            print(values[1])

            """
        var settings = SwiftProgram.Settings()
        settings.format = .json
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == 1, "\(result.text)")
        let events = result.text.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(events.count == 3, "\(result.text)")
        #expect(events.first == #"{"event":"print","text":"before the trap","depth":0}"#)
        #expect(events.dropFirst().first == #"{"event":"print","text":"written directly","depth":0}"#)
        #expect(
            events.last?.hasPrefix(#"{"event":"error","message":"the program stopped: a Swift runtime trap"#) == true)
    }

    /// Each JSON event is complete on its own (issue 42, item 3): a Swift
    /// program's errors name their file as a scenario's do, and a trap's
    /// event carries Swift's `Fatal error` line, which also still goes to
    /// standard error as it was written.
    @Test func jsonErrorsOfASwiftProgramNameTheFileAndTheFatalError() throws {
        let folder = try Folder()
        try folder.write("typo.swift", "import Foundation\nlet x: Int = \"one\"\n")
        let typo = try folder.run(["--format", "json", "typo.swift"])
        #expect(typo.status == 2, "\(typo)")
        #expect(typo.outLines.last?.hasSuffix(#""line":2,"column":14,"file":"typo.swift"}"#) == true, "\(typo)")
        try folder.write("trap.swift", "import Foundation\nprint(1)\nfatalError(\"the end\")\n")
        let trap = try folder.run(["--format", "json", "trap.swift"])
        #expect(trap.status == 1, "\(trap)")
        #expect(
            trap.outLines == [
                #"{"event":"print","text":"1","depth":0}"#,
                #"{"event":"error","message":"the program stopped: a Swift runtime trap (signal 4): main/trap.swift:3: Fatal error: the end","line":3,"column":1,"file":"trap.swift"}"#,
            ], "\(trap)")
        #expect(trap.err.contains("Fatal error: the end"), "\(trap)")
        // An uncaught exception's events and a runtime error from the runtime name it too.
        try folder.write(
            "unknown.swift",
            "import Foundation\nclass A: NSObject {}\nlet a = A()\nlet t = a.observe(\\A.description) { _, _ in }\n")
        let runtime = try folder.run(["--format", "json", "unknown.swift"])
        #expect(runtime.outLines.contains { $0.hasPrefix(#"{"event":"error""#) }, "\(runtime)")
        for line in runtime.outLines
        where line.hasPrefix(#"{"event":"error""#) || line.hasPrefix(#"{"event":"warning""#) {
            #expect(line.hasSuffix(#""file":"unknown.swift"}"#), "\(runtime)")
        }
    }

    // MARK: Issue 42: the pictures of a Swift program

    /// The Swift twin of PictureTests.heldTokensScenario: tokens in an
    /// array property, an optional property, a top-level array appended to,
    /// a top-level array literal, a top-level optional given one later.
    static let heldTokensProgram = """
        import Foundation
        class A: NSObject { @objc dynamic var x = 0; @objc dynamic var y = 0 }
        class Owner: NSObject { var tokens: [NSKeyValueObservation] = []; var maybe: NSKeyValueObservation? }
        let a = A()
        let b = A()
        let owner = Owner()
        owner.tokens.append(a.observe(\\.x) { _, _ in print("x") })
        owner.maybe = b.observe(\\.y) { _, _ in print("y") }
        var tokens: [NSKeyValueObservation] = []
        tokens.append(b.observe(\\.x) { _, _ in print("bx") })
        let more = [b.observe(\\.y) { _, _ in print("by") }, a.observe(\\.y) { _, _ in print("ay") }]
        var token: NSKeyValueObservation?
        token = a.observe(\\.x) { _, _ in print("ax") }
        a.x = 1

        """

    /// Tokens kept in arrays were `NSKeyValueObservation#1…4` with no edge
    /// from what keeps them: the runtime's reflection follows arrays,
    /// dictionaries, sets and optionals, and a token a top-level array
    /// holds is named after it, as the scenario's graph does.
    @Test func aSwiftGraphShowsWhatHoldsEachToken() throws {
        let folder = try Folder()
        try folder.write("held.swift", Self.heldTokensProgram)
        try folder.write("held.kvo", PictureTests.heldTokensScenario)
        let swift = try folder.run(["graph", "held.swift"])
        #expect(swift.status == 0 && swift.err == "", "\(swift)")
        let scenario = try folder.run(["graph", "held.kvo"])
        #expect(swift.out == scenario.out, "\(swift.out)\n\(scenario.out)")
        let pictures = PictureTests()
        let dot = swift.out
        let ids = pictures.nodeIDs(dot)
        for name in ["tokens[0]", "more[0]", "more[1]", "token", "NSKeyValueObservation#1", "NSKeyValueObservation#2"] {
            #expect(ids[name] != nil, "no \(name) in \(ids)")
        }
        #expect(pictures.holds(dot, "owner", "NSKeyValueObservation#1", "\"tokens[0]\""), "\(dot)")
        #expect(pictures.holds(dot, "owner", "NSKeyValueObservation#2", "\"maybe\""), "\(dot)")
        // `--at`: what held the tokens just after line 10, before `more` and `token`.
        let early = try folder.run(["graph", "held.swift", "--at", "10"])
        #expect(early.status == 0, "\(early)")
        let earlyIDs = pictures.nodeIDs(early.out)
        #expect(earlyIDs["tokens[0]"] != nil && earlyIDs["more[0]"] == nil && earlyIDs["token"] == nil, "\(earlyIDs)")
        guard ExternalTool.find("dot") != nil else { return }
        let svg = try folder.run(["graph", "held.swift", "-o", "held.svg"])
        #expect(svg.status == 0, "\(svg)")
        let drawn = pictures.texts(try folder.read("held.svg")).map(\.text)
        for expected in ["tokens[0]", "more[0]", "maybe", "NSKeyValueObservation#1"] {
            #expect(drawn.contains(expected), "no \(expected) in \(drawn)")
        }
        try pictures.rendersToAPicture(folder.url.appendingPathComponent("held.svg").path, in: folder)
    }

    /// What only Swift has: dictionaries (by key, in order of their keys),
    /// sets (in order of their members' names), optionals of arrays, a
    /// `Set<…>()` at top level, a key whose description is the program's own.
    @Test func aSwiftGraphFollowsDictionariesSetsAndOptionals() throws {
        let folder = try Folder()
        try folder.write(
            "kinds.swift",
            """
            import Foundation
            class A: NSObject { @objc dynamic var x = 0 }
            struct Key: Hashable, CustomStringConvertible { var description: String { "never shown" } }
            class Owner: NSObject {
                var byName: [String: NSKeyValueObservation] = [:]
                var bag: Set<NSKeyValueObservation> = []
                var later: [NSKeyValueObservation]? = nil
                var byKey: [Key: NSKeyValueObservation] = [:]
                var computed: [NSKeyValueObservation] { [] }
            }
            let a = A()
            let owner = Owner()
            owner.byName["b"] = a.observe(\\.x) { _, _ in }
            owner.byName["a"] = a.observe(\\.x) { _, _ in }
            owner.bag.insert(a.observe(\\.x) { _, _ in })
            owner.later = [a.observe(\\.x) { _, _ in }]
            owner.byKey[Key()] = a.observe(\\.x) { _, _ in }
            let byID = [7: a.observe(\\.x) { _, _ in }]
            var set = Set<NSKeyValueObservation>()
            set.insert(a.observe(\\.x) { _, _ in })
            var none: [NSKeyValueObservation]?
            let count: Int = byID.count + set.count + (none?.count ?? 0)
            print(count)

            """)
        let result = try folder.run(["graph", "kinds.swift"])
        #expect(result.status == 0 && result.err == "", "\(result)")
        let dot = result.out
        let pictures = PictureTests()
        let ids = pictures.nodeIDs(dot)
        #expect(ids["byID[7]"] != nil, "\(ids)")
        #expect(ids.keys.contains { $0.hasPrefix("NSKeyValueObservation#") && $0.hasSuffix(" in set") }, "\(ids)")
        for label in ["byName[\\\"a\\\"]", "byName[\\\"b\\\"]", "bag (set)", "later[0]", "byKey[…]"] {
            #expect(dot.contains("label=\"\(label)\"];"), "no \(label) in \(dot)")
        }
        #expect(!dot.contains("never shown"))
        // In order of their keys, whatever order the dictionary has.
        let first = try #require(dot.range(of: "label=\"byName[\\\"a\\\"]\""))
        let second = try #require(dot.range(of: "label=\"byName[\\\"b\\\"]\""))
        #expect(first.lowerBound < second.lowerBound)
    }

    /// The Swift twin of PictureTests.nestedScenario: handlers nested three
    /// deep, long keys, notes inside handlers.
    @Test func theTraceOfASwiftProgramKeepsLabelsClearOfBars() throws {
        let folder = try Folder()
        try folder.write(
            "nest.swift",
            """
            import Foundation
            class Account: NSObject {
                @objc dynamic var balance: Double = 0
                @objc dynamic var fee: Double = 0
                @objc dynamic var interestRateForTheLongestNameEver: Double = 0
                @objc dynamic var auditTrailEntryWithAVeryLongKeyName: String = ""
            }
            class Bumper: NSObject {
                let target: Account
                init(target: Account) { self.target = target; super.init() }
                override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    if keyPath == "balance" { target.fee = 1 }
                    if keyPath == "fee" {
                        target.interestRateForTheLongestNameEver = 2
                        print("a rather long note printed inside the nested handler, two deep")
                    }
                }
            }
            class Auditor: NSObject {
                let target: Account
                init(target: Account) { self.target = target; super.init() }
                override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    if keyPath == "interestRateForTheLongestNameEver" && change?[.notificationIsPriorKey] == nil {
                        target.auditTrailEntryWithAVeryLongKeyName = "the rate changed to a new value"
                    }
                    print("audit \\(keyPath ?? "")")
                }
            }
            class Recorder: NSObject {
                override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    print("recorded three deep, with a long line of text")
                }
            }
            let acct = Account()
            let bumper = Bumper(target: acct)
            let auditor = Auditor(target: acct)
            let recorder = Recorder()
            acct.addObserver(bumper, forKeyPath: "balance", options: [.new, .old], context: nil)
            acct.addObserver(auditor, forKeyPath: "fee", options: [.new, .old], context: nil)
            acct.addObserver(bumper, forKeyPath: "fee", options: [.new, .old], context: nil)
            acct.addObserver(auditor, forKeyPath: "interestRateForTheLongestNameEver", options: [.new, .old, .prior], context: nil)
            acct.addObserver(recorder, forKeyPath: "auditTrailEntryWithAVeryLongKeyName", options: [.new, .old], context: nil)
            acct.balance = 5

            """)
        let result = try folder.run(["trace", "nest.swift", "-o", "nest.svg"])
        #expect(result.status == 0, "\(result)")
        let svg = try folder.read("nest.svg")
        let pictures = PictureTests()
        #expect(pictures.parsesAsXML(svg))
        let drawn = pictures.traceOverlaps(svg)
        #expect(drawn.overlaps.isEmpty, "\(drawn.overlaps.joined(separator: "\n"))")
        let nested = drawn.bars.filter { bar in drawn.bars.contains { $0.top < bar.top && $0.bottom >= bar.bottom } }
        #expect(nested.count >= 3, "\(drawn.bars)")
        #expect(pictures.texts(svg).contains { $0.text == "recorded three deep, with a long line of text" })
        try pictures.rendersToAPicture(folder.url.appendingPathComponent("nest.svg").path, in: folder)
    }
}
