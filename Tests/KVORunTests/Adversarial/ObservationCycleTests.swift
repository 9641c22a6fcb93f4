import _KVOTestSupport
import Foundation
import Testing

/// Observed key paths and affecting key paths around cycles of objects or keys.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct ObservationCycleTests {
    typealias A = Adversarial

    // MARK: Cycles

    @Test func observedKeyPathThroughAnObjectCycle() throws {
        let path = String(repeating: "next.", count: 8) + "value"
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var value: Int = 0
            }
            class Watcher { }
            let a = Node()
            let b = Node()
            a.next = b
            b.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "\(path)", options: [.new, .old, .prior])
            b.value = 5
            a.value = 6
            a.next = a
            b.next = b
            print(a.value(forKeyPath: "\(path)"))
            a.removeObserver(w, forKeyPath: "\(path)")
            a.value = 7
            print("done")

            """, .success)
        #expect(result.out.hasSuffix("6\ndone\n"), "\(result)")
    }

    /// A long key path around a one-object cycle: registration must not cost
    /// time or memory quadratic in the path's length (each forwarding level
    /// should not copy the rest of the path).
    @Test func longObservedKeyPathAroundACycle() throws {
        let path = String(repeating: "next.", count: 20_000) + "value"
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var value: Int = 0
            }
            class Watcher { }
            let a = Node()
            a.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "\(path)", options: [.new, .old])
            a.value = 1
            a.removeObserver(w, forKeyPath: "\(path)")
            print("done")

            """, .success, arguments: ["--quiet"])
        #expect(result.out == "done\n", "\(result)")
    }

    @Test func affectingKeyPathsWithCycles() throws {
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var x: Int = 0
                @affectedBy(x, y, next.z)
                var z: Int { x + 1 }
                @affectedBy(z, next.y, next.next.z)
                var y: Int { x + 2 }
            }
            class Loop {
                var me: Loop?
                @affectedBy(me.total, me.me.total, total)
                var total: Int { 1 }
            }
            class Watcher { }
            let a = Node()
            let b = Node()
            a.next = b
            b.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "z", options: [.new, .old, .prior])
            a.addObserver(w, forKeyPath: "y", options: [.new, .old])
            b.addObserver(w, forKeyPath: "next.z", options: [.new])
            a.x = 1
            b.x = 2
            a.next = a
            b.next = nil
            let s = Loop()
            s.me = s
            s.addObserver(w, forKeyPath: "total", options: [.new, .old, .prior])
            s.me = s
            s.me = nil
            print("done")

            """, .success)
        #expect(result.out.hasSuffix("done\n"), "\(result)")
    }

    @Test func keyPathsForValuesAffectingReturningACycle() throws {
        try A.check(
            """
            class A {
                var x: Int = 0
                var y: Int = 0
                static func keyPathsForValuesAffecting(key) {
                    if key == "x" { return ["y"] }
                    if key == "y" { return ["x"] }
                    return []
                }
            }
            class W { }
            let a = A()
            let w = W()
            a.addObserver(w, forKeyPath: "x", options: [.new, .old])
            a.addObserver(w, forKeyPath: "y", options: [.new, .old])
            a.x = 2
            a.y = 3
            print("done")

            """, .success)
    }
}
