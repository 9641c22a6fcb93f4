import _KVOTestSupport
@testable import KVORun
@testable import KVOOutput
import KVOCore
import KVOScript
import Foundation
import Testing

/// `--explain`: the steps reported, in text and JSON, and what it costs.
@Suite(.serialized) struct ExplainTests {
    var explaining: RunOptions {
        var options = RunOptions()
        options.explain = true
        return options
    }

    func explainLines(_ source: String) -> [String] {
        let result = run(source, options: explaining)
        return result.out.split(separator: "\n").map(String.init)
            .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    }

    let twoObservers = """
        class Account { var balance: Double = 0 }
        class Person { }
        let acct = Account()
        let alice = Person()
        let bob = Person()
        acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
        acct.addObserver(bob, forKeyPath: "balance", options: [.new, .old])
        acct.balance = 5

        """

    @Test func withoutExplainNothingIsAdded() {
        let plain = run(twoObservers)
        #expect(
            plain.out == """
                acct.balance → bob {kind = 1; new = 5; old = 0}
                acct.balance → alice {kind = 1; new = 5; old = 0}

                """)
    }

    @Test func theEngineEmitsNoExplanationUnlessAsked() throws {
        let sink = CollectingSink()
        let kvo = KVORuntime(sink: sink)
        let cls = ClassInfo(name: "Account", superclass: nil)
        _ = cls.addProperty(PropertyInfo(name: "balance", type: .double, storage: .stored(slot: 0)))
        let acct = kvo.makeObject(cls, name: "acct")
        let alice = kvo.makeObject(ClassInfo(name: "Person", superclass: nil), name: "alice")
        try kvo.addObserver(alice, to: .object(acct), keyPath: "balance", options: [.new], context: nil)
        let property = try #require(cls.property(named: "balance"))
        try kvo.set(acct, property, .double(1))
        #expect(sink.events.count == 1)
        kvo.explains = true
        try kvo.set(acct, property, .double(2))
        let explanations = sink.events.filter { if case .explain = $0 { return true } else { return false } }
        // change, pending, stack, did, deliver
        #expect(explanations.count == 5)
    }

    @Test func thePendingStackAndTheReverseOrderAreExplained() {
        let lines = explainLines(twoObservers)
        #expect(lines.contains("# pending stack (top last): [acct.balance]"))
        #expect(
            lines.contains(
                "# did: acct.balance popped from the pending stack; 2 pending notifications, newest "
                    + "registration first (the did phase pops them from the most recent back): "
                    + "acct[1], acct[0]"))
        #expect(lines.contains("# will: acct[0] (alice observes balance) is pending; old = 0 read now"))
        #expect(
            lines.contains(
                "# did: acct[1] (bob observes balance) is still registered: delivered; "
                    + "new = 5 read now"))
    }

    @Test func nestedStepsFollowTheTraceIndentation() {
        let source = """
            class Account { var balance: Double = 0; var fee: Double = 0 }
            class Bumper {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "balance" { target.fee = 1 }
                }
            }
            let acct = Account()
            let bumper = Bumper(target: acct)
            acct.addObserver(bumper, forKeyPath: "balance", options: [.new])
            acct.addObserver(bumper, forKeyPath: "fee", options: [.new])
            acct.balance = 5

            """
        let out = run(source, options: explaining).out
        #expect(out.contains("acct.balance → bumper {kind = 1; new = 5}\n  # change of acct.fee"))
        #expect(out.contains("  acct.fee → bumper {kind = 1; new = 1}\n"))
    }

    @Test func anIdenticalRegistrationKeepsAMidChangeRemovalDelivered() {
        let source = """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.willChangeValue(forKey: "balance")
            acct.removeObserver(alice, forKeyPath: "balance")
            acct.didChangeValue(forKey: "balance")

            """
        let lines = explainLines(source)
        #expect(lines.contains("# change of acct.balance (kind 1, setting), manual: the scenario called willChange"))
        #expect(
            lines.contains(
                "# did: acct[-] (alice observes balance) was removed, but an identical registration "
                    + "is registered: delivered; new = 0 read now"))
        #expect(
            lines.contains(
                "# did: acct[0] (alice observes balance) is still registered: delivered; "
                    + "new = 0 read now"))
    }

    @Test func aManualChangeBetweenWillAndDidSkipsAnAddedObserver() {
        let source = """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            let bob = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.willChangeValue(forKey: "balance")
            acct.addObserver(bob, forKeyPath: "balance", options: [.new])
            acct.didChangeValue(forKey: "balance")

            """
        let lines = explainLines(source)
        #expect(
            lines.contains(
                "# did: acct[1] (bob observes balance) not told: registered after this change's "
                    + "will phase"))
    }

    @Test func aPriorNotificationAndASecondDependencyAreExplained() {
        let source = """
            class Account {
                var balance: Double = 0
                var fee: Double = 0
                @affectedBy(balance, fee) var net: Double { balance - fee }
                @affectedBy(net, balance) var summary: String { "net \\(net)" }
            }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "summary", options: [.prior])
            acct.balance = 3

            """
        let lines = explainLines(source)
        #expect(
            lines.contains(
                "# will: acct[0] (alice observes summary) is pending, through dependent keys "
                    + "balance → summary; no old asked"))
        #expect(
            lines.contains(
                "# will: acct[0] (alice observes summary) asked for .prior: told now, "
                    + "before the change"))
    }

    @Test func jsonExplainEventsAreStructured() throws {
        let result = run(twoObservers, options: explaining, format: .json)
        var steps: [String] = []
        for line in result.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["event"] as? String == "explain" else { continue }
            let step = try #require(object["step"] as? String)
            steps.append(step)
            #expect(object["depth"] as? Int == 0)
            if step == "did" {
                let order = try #require(object["order"] as? [[String: Any]])
                #expect(order.map { $0["id"] as? String } == ["acct[1]", "acct[0]"])
                #expect(order.map { $0["observer"] as? String } == ["bob", "alice"])
            }
            if step == "stack" { #expect(object["stack"] as? [String] == ["acct.balance"]) }
        }
        // The first registration swizzles acct's class (object_getClass shows NSKVONotifying_Account).
        #expect(
            steps == [
                "registered", "swizzled", "registered", "change", "pending", "pending", "stack", "did",
                "deliver", "deliver",
            ])
    }

    @Test func aThousandNotificationsExplainedRunWellUnderASecond() {
        let source = """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            let bob = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
            acct.addObserver(bob, forKeyPath: "balance", options: [.new, .old])
            var i = 0
            while i < 500 { acct.balance = i; i = i + 1 }

            """
        let start = ContinuousClock.now
        let result = run(source, options: explaining)
        let elapsed = ContinuousClock.now - start
        #expect(result.out.components(separatedBy: "→").count - 1 == 1000)
        #expect(result.out.components(separatedBy: "# did: acct.balance popped").count - 1 == 500)
        #expect(elapsed < .milliseconds(800), "\(elapsed)")
    }

    /// Issue 29 item 9: a @manual custom setter was "nobody is told" and then
    /// notified; its ivar write had its own line; an initializer's sets on an
    /// object nobody could observe yet each had a line.
    @Test func explainSaysWhatHappensOnceAndNothingWhereNothingCanBeObserved() {
        let source = """
            class Account {
                @manual var balance: Double = 0 {
                    set {
                        willChangeValue(forKey: "balance")
                        _balance = newValue
                        didChangeValue(forKey: "balance")
                    }
                }
                var owner: String
                init(owner: String) {
                    self.owner = owner
                    balance = 5
                }
            }
            class Person {
                func observeValue(forKeyPath keyPath, of object, change, context) { print("heard") }
            }
            let acct = Account(owner: "Ann")
            let other = Account(owner: "Bo")
            let p = Person()
            acct.addObserver(p, forKeyPath: "balance", options: [.new])
            acct.balance = 10
            other._balance = 1

            """
        let result = run(source, options: explaining)
        #expect(
            result.out == """
                # addObserver: acct[0] registered: p observes acct.balance, options [new], no context
                # change of acct.balance (kind 1, setting), manual: the scenario called willChange
                # will: acct[0] (p observes balance) is pending; no old asked
                # pending stack (top last): [acct.balance]
                # did: acct.balance popped from the pending stack; 1 pending notification: acct[0]
                # did: acct[0] (p observes balance) is still registered: delivered; new = 10 read now
                acct.balance → p {kind = 1; new = 10}
                  heard
                # other._balance written: nobody is told, an instance variable write runs no setter

                """, "\(result)")
    }

    @Test func theGoldenDirectiveTurnsExplainOnAndRejectsUnknownWords() throws {
        let folder = try Folder()
        let good = try folder.write("good.kvo", "// kvo-run: --explain\n" + twoObservers)
        guard case .output(let text) = Golden.run(scenarioAt: good) else {
            Issue.record("the scenario did not run")
            return
        }
        #expect(text.contains("# pending stack (top last): [acct.balance]"))
        let bad = try folder.write("bad.kvo", "// kvo-run: --explian\n" + twoObservers)
        guard case .failure(let why) = Golden.run(scenarioAt: bad) else {
            Issue.record("an unknown directive word was accepted")
            return
        }
        #expect(why.contains("'--explian' is not an option"))
        let plain = try folder.write("plain.kvo", "// kvo-run is great\n" + twoObservers)
        guard case .output(let plainText) = Golden.run(scenarioAt: plain) else {
            Issue.record("an ordinary comment stopped the scenario")
            return
        }
        #expect(!plainText.contains("#"))
    }

    @Test func explainOnTheCommandLine() throws {
        let folder = try Folder()
        try folder.write("two.kvo", twoObservers)
        let result = try folder.run(["--explain", "two.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.outLines.first
                == "# addObserver: acct[0] registered: alice observes acct.balance, options [new, old], no context")
        #expect(
            result.outLines.filter { !$0.hasPrefix("#") } == [
                "acct.balance → bob {kind = 1; new = 5; old = 0}",
                "acct.balance → alice {kind = 1; new = 5; old = 0}",
            ])
    }

    /// docs/explain.md: the Swift silent cases — an assignment to a property
    /// that is not `@objc dynamic`, and a change after the `observe` token
    /// was released or invalidated — in a compiled Swift program (SPEC §11.0).
    /// The `--explain` lines of a compiled Swift program.
    static func explainedSwift(_ source: String) -> [String] {
        var settings = SwiftProgram.Settings()
        settings.explain = true
        let result = SwiftProgramTests.run(source, settings: settings)
        return result.text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("#") }
    }

    @Test func swiftsSilentCasesSayWhy() {
        let lines = Self.explainedSwift(
            """
            import Foundation
            class Account: NSObject {
                @objc dynamic var balance: Double = 0
                @objc var note: String = ""
            }
            let acct = Account()
            _ = acct.observe(\\.balance) { a, change in print("told") }
            acct.balance = 1
            let token = acct.observe(\\.balance) { a, change in print("told") }
            token.invalidate()
            acct.balance = 2
            acct.note = "x"
            """)
        #expect(
            lines.contains(
                "# token of observe(\\.balance) on acct released (nothing holds it any more): its observer is removed"),
            "\(lines)")
        #expect(lines.contains("# acct.balance set: nobody is told, the observe(\\.balance) token was released"))
        #expect(lines.contains("# token of observe(\\.balance) on acct invalidated: its observer is removed"))
        #expect(lines.contains("# acct.balance set: nobody is told, the observe(\\.balance) token was invalidated"))
        #expect(
            lines.last
                == "# acct.note set: nobody is told, note is not @objc dynamic: the assignment runs its setter "
                + "directly, KVO's subclass never sees it")
        // A new registration of the key forgets the ended token.
        let again = Self.explainedSwift(
            """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            class Watcher: NSObject { }
            let acct = Account()
            let w = Watcher()
            _ = acct.observe(\\.balance) { a, change in }
            acct.addObserver(w, forKeyPath: "balance", options: [], context: nil)
            acct.removeObserver(w, forKeyPath: "balance")
            acct.balance = 1
            """)
        #expect(again.last == "# acct.balance set: nobody is told, nobody observes acct", "\(again)")
        var settings = SwiftProgram.Settings()
        settings.explain = true
        settings.format = .json
        let json = SwiftProgramTests.run(
            "import Foundation\nclass A: NSObject { @objc dynamic var n = 0 }\nlet a = A()\n"
                + "_ = a.observe(\\.n) { o, c in }\na.n = 1\n", settings: settings)
        #expect(json.text.contains(#"{"event":"explain","step":"tokenReleased","object":"a","keyPath":"n","depth":0}"#))
        #expect(
            json.text.contains(
                #"{"event":"explain","step":"silent","object":"a","key":"n","reason":"tokenReleased","depth":0}"#),
            "\(json.text)")
    }

    /// A fuzzer's find: a 3,000-component affecting path on an object whose
    /// `next` is itself makes 3,000 forwarding observances. Each step lists
    /// at most 16 (then how many more), each key path is cut at 200
    /// characters, and the isa-swizzle check reads first keys only: the
    /// explanation stays a few kilobytes instead of tens of megabytes.
    @Test func aLongAffectingPathIsExplainedInBoundedText() {
        let path = Array(repeating: "next", count: 3_000).joined(separator: ".") + ".x"
        let result = run(
            """
            class N {
                var next: N?
                var x: Int = 0
                @affectedBy(\(path)) var y: Int { return x }
            }
            class W { }
            let n = N()
            n.next = n
            let w = W()
            n.addObserver(w, forKeyPath: "y")
            n.x = 1
            """, options: explaining)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.utf8.count < 20_000, "\(result.out.utf8.count) bytes")
        #expect(result.out.contains("#   … and 2984 more not listed\n"))
        #expect(result.out.contains("n.y → w {kind = 1}"))
        #expect(result.out.split(separator: "\n").allSatisfy { $0.utf8.count < 300 })
    }

    @Test func theIsaSwizzleStepReadsInTextAndJSON() {
        let swizzled = Explanation.classChanged(
            object: "acct", from: "Account", to: "NSKVONotifying_Account",
            swizzled: true)
        #expect(
            ExplainFormat.render(swizzled, depth: 1)
                == "  # isa-swizzle: acct's class Account is replaced by the generated subclass "
                + "NSKVONotifying_Account\n")
        let undone = Explanation.classChanged(
            object: "acct", from: "NSKVONotifying_Account", to: "Account",
            swizzled: false)
        #expect(
            ExplainFormat.render(undone, depth: 0)
                == "# isa-swizzle undone: acct's class is Account again (its last observance is gone)\n")
        #expect(
            JSONFormat.render(.explain(undone, depth: 0)) == "{\"event\":\"explain\",\"step\":\"unswizzled\","
                + "\"object\":\"acct\",\"from\":\"NSKVONotifying_Account\",\"to\":\"Account\",\"depth\":0}")
    }

    @Test func theEngineReportsTheSwizzleThroughItsHook() {
        let sink = CollectingSink()
        let kvo = KVORuntime(sink: sink)
        let acct = kvo.makeObject(ClassInfo(name: "Account", superclass: nil), name: "acct")
        kvo.explainClassChange(acct, from: "Account", to: "NSKVONotifying_Account", swizzled: true)
        guard case .explain(.classChanged(let object, _, let to, true), 0)? = sink.events.first else {
            Issue.record("no swizzle step: \(sink.events)")
            return
        }
        #expect(object == "acct" && to == "NSKVONotifying_Account")
    }

    @Test func controlCharactersInNamesAreEscaped() {
        let lines = ExplainFormat.lines(.silent(object: "acct", key: "a\u{1B}b", reason: .noObservers))
        #expect(
            ExplainFormat.render(.silent(object: "acct", key: "a\u{1B}b", reason: .noObservers), depth: 0)
                .contains("\\u{1B}"))
        #expect(lines == ["acct.a\u{1B}b set: nobody is told, nobody observes acct"])
    }
}
