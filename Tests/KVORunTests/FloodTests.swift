import _KVOTestSupport
@testable import KVORun
import KVOCore
import KVOScript
import Foundation
import Testing

/// Issue 26, "Floods and super-linear work": small inputs that printed
/// gigabytes or took minutes. Each checks what bounds the output (its size,
/// its counts); where the fix is to the work itself, a run in its own process
/// under a limit that the old code missed many times over.
@Suite(.serialized) struct FloodTests {
    typealias A = Adversarial

    var explaining: RunOptions {
        var options = RunOptions()
        options.explain = true
        return options
    }

    /// Well above what these take now (about a second at most), well below
    /// what they took (43 s, minutes).
    static let quick: TimeInterval = 10

    // MARK: --explain prints a bounded pending stack

    /// `n` nested manual changes of one observed key, then their did phases.
    static func nestedChanges(_ n: Int) -> String {
        """
        class A { var x: Int = 0 }
        class W { }
        let a = A()
        let w = W()
        a.addObserver(w, forKeyPath: "x")
        for i in 0..<\(n) { a.willChangeValue(forKey: "x") }
        for i in 0..<\(n) { a.didChangeValue(forKey: "x") }
        print("done")

        """
    }

    /// Each step printed the whole pending stack: 20,000 nested changes made
    /// 2 GB. A step now shows the top 16 and how many lie below.
    @Test func aDeepPendingStackIsShownByItsTopAndCounted() {
        let result = run(Self.nestedChanges(2_000), options: explaining)
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        let stacks = lines.filter { $0.hasPrefix("# pending stack (top last): ") }
        #expect(stacks.count == 2_000)
        let sixteen = Array(repeating: "a.x", count: 16).joined(separator: ", ")
        #expect(stacks.last == "# pending stack (top last): [… 1984 more below, \(sixteen)]")
        #expect(stacks[15] == "# pending stack (top last): [\(sixteen)]")
        #expect(stacks[16] == "# pending stack (top last): [… 1 more below, \(sixteen)]")
        #expect(
            lines.contains(
                "# did: a.x popped from the pending stack; 1 pending notification: a[0]; still pending: "
                    + "[… 1983 more below, \(sixteen)]"))
        // Every line stays short, and the whole grows linearly: about 200 bytes a step.
        #expect(lines.allSatisfy { $0.utf8.count < 300 })
        #expect(result.out.utf8.count < 2_000 * 1_000, "\(result.out.utf8.count) bytes")
    }

    @Test func jsonGivesTheTopOfTheStackAndItsCount() throws {
        let result = run(Self.nestedChanges(40), options: explaining, format: .json)
        #expect(result.status == 0, "\(result.err)")
        let events = result.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let stacks = events.filter { $0["step"] as? String == "stack" }
        #expect(stacks.count == 40)
        let last = try #require(stacks.last)
        #expect(last["stackCount"] as? Int == 40)
        #expect((last["stack"] as? [String])?.count == 16)
        let did = try #require(events.first { $0["step"] as? String == "did" })
        #expect(did["stackCount"] as? Int == 39)
        #expect(did["count"] as? Int == 1)
    }

    /// The did phase listed every pending notification: 60,000 observers of
    /// one key made one line of megabytes. It names the first 16 and the count.
    @Test func theDidPhaseListsSixteenAndCountsTheRest() {
        let result = run(
            """
            class A { var x: Int = 0 }
            class W { }
            let a = A()
            let w = W()
            for i in 0..<100 { a.addObserver(w, forKeyPath: "x") }
            a.x = 1

            """, options: explaining)
        #expect(result.status == 0, "\(result.err)")
        let did = Array((99 - 15...99).reversed()).map { "a[\($0)]" }.joined(separator: ", ")
        #expect(
            result.out.contains(
                "# did: a.x popped from the pending stack; 100 pending notifications, newest registration first "
                    + "(the did phase pops them from the most recent back): \(did)\n#   … and 84 more not listed\n"),
            "\(result.out.suffix(3_000))")
        #expect(result.out.components(separatedBy: "a.x → w").count - 1 == 100)
    }

    /// An observer added during a change is still said not to be told, when
    /// identical to one recorded (the hashed check of the did phase).
    @Test func anObserverAddedMidChangeIsStillNamed() {
        let result = run(
            """
            class A { var x: Int = 0 }
            class W { }
            let a = A()
            let w = W()
            let v = W()
            for i in 0..<50 { a.addObserver(w, forKeyPath: "x") }
            a.willChangeValue(forKey: "x")
            a.addObserver(v, forKeyPath: "x")
            a.addObserver(w, forKeyPath: "x")
            a.didChangeValue(forKey: "x")

            """, options: explaining)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("# did: a[50] (v observes x) not told: registered after this change's will phase"))
        // w's 51st registration is identical to the 50 recorded ones: delivered as theirs, not named.
        #expect(!result.out.contains("# did: a[51] (w observes x) not told"))
    }

    // MARK: --explain registration is linear

    /// 60,000 explained registrations took 43 s: each named its index by
    /// counting the slots before it, and asked `object_getClass`, which walked
    /// every observance. Removing them (each counting the matches) was as slow.
    @Test func sixtyThousandExplainedRegistrationsAndRemovalsRunPromptly() throws {
        let source = """
            class A { var x: Int = 0 }
            class W { }
            let a = A()
            let w = W()
            for i in 0..<60000 { a.addObserver(w, forKeyPath: "x") }
            for i in 0..<30000 { a.removeObserver(w, forKeyPath: "x") }
            a.x = 1
            for i in 0..<30000 { a.removeObserver(w, forKeyPath: "x") }
            print("done")

            """
        let result = try A.check(source, .success, arguments: ["--explain"], timeout: Self.quick)
        #expect(result.out.hasSuffix("done\n"))
        #expect(result.out.contains("# addObserver: a[59999] registered: w observes a.x, no options, no context\n"))
        #expect(
            result.out.contains(
                "# removeObserver without context: w has 30000 registrations for a.x, of any context; the most "
                    + "recent, a[29999] (no context), is removed\n"))
        #expect(result.out.contains("# isa-swizzle undone: a's class is A again (its last observance is gone)\n"))
    }

    /// Positions stay right when removals from the middle leave holes.
    @Test func explainedIndexesSkipRemovedObservances() {
        let result = run(
            """
            class A { var x: Int = 0; var y: Int = 0 }
            class W { }
            let a = A()
            let w = W()
            let v = W()
            a.addObserver(w, forKeyPath: "x")
            a.addObserver(v, forKeyPath: "y")
            a.addObserver(w, forKeyPath: "y")
            a.removeObserver(v, forKeyPath: "y")
            a.y = 1

            """, options: explaining)
        #expect(result.out.contains("# removeObserver without context: a[1] (no context) is v's registration"))
        #expect(result.out.contains("# will: a[1] (w observes y) is pending; no old asked"))
    }

    // MARK: object_getClass costs O(1)

    /// `object_getClass` walked every observance (and copied them) at each
    /// call: 20,000 calls on an object with 20,000 observances of a key not
    /// notified automatically took 37 s of CPU.
    @Test func objectGetClassDoesNotWalkTheObservances() throws {
        let source = """
            class A {
                @manual var m: Int = 0
                var y: Int = 0
            }
            class W { }
            let a = A()
            let w = W()
            for i in 0..<20000 { a.addObserver(w, forKeyPath: "m") }
            var s = ""
            for i in 0..<20000 { s = NSStringFromClass(object_getClass(a)) }
            print(s)
            a.addObserver(w, forKeyPath: "y")
            for i in 0..<20000 { s = NSStringFromClass(object_getClass(a)) }
            print(s)
            a.removeObserver(w, forKeyPath: "y")
            print(NSStringFromClass(object_getClass(a)))

            """
        let result = try A.check(source, .success, timeout: Self.quick)
        #expect(result.out == "A\nNSKVONotifying_A\nA\n", "\(result)")
    }
}
