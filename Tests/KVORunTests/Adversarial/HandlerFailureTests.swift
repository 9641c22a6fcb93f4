import _KVOTestSupport
import Foundation
import Testing

/// Exceptions and runtime errors inside handlers, and objects released while a notification is delivered.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct HandlerFailureTests {
    typealias A = Adversarial

    // MARK: Exceptions in handlers, release during delivery

    @Test func exceptionInAHandlerWithKeepGoingLaterSetsStillNotify() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P {
                func observeValue(keyPath, object, change, context) {
                    print("handling \\(change.new)")
                    object.removeObserver(self, forKeyPath: "nope")
                }
            }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2
            a.x = 3
            print("end")

            """, .exception, arguments: ["--keep-going"])
        #expect(
            result.out.components(separatedBy: "*** Statement stopped by uncaught exception 'NSRangeException'").count
                == 4, "\(result)")
        #expect(!result.out.contains("Terminating app"), "the run went on: \(result)")
        // Each names the handler's statement that raised it.
        #expect(
            result.err.components(
                separatedBy: "adv.kvo:5:30: note: the uncaught exception 'NSRangeException' was raised here"
            )
            .count == 4, "\(result)")
        for n in 1...3 {
            #expect(result.out.contains("a.x → p {kind = 1; new = \(n)}"), "\(result)")
            #expect(result.out.contains("handling \(n)"), "\(result)")
        }
        #expect(result.out.hasSuffix("end\n"), "\(result)")
    }

    @Test func runtimeErrorInAHandlerWithKeepGoing() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P { func observeValue(keyPath, object, change, context) { print(10 / (change.new - 1)) } }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2
            print("end")

            """, .runtimeError, message: "division by zero", arguments: ["--keep-going"])
        #expect(result.out == "a.x → p {kind = 1; new = 1}\na.x → p {kind = 1; new = 2}\n  10\nend\n", "\(result)")
        #expect(result.err.hasPrefix("adv.kvo:2:"), "\(result)")
    }

    @Test func caughtExceptionsInNestedHandlersUnwindCleanly() throws {
        let result = try A.check(
            """
            class A {
                var x: Int = 0
                func observeValue(keyPath, object, change, context) {
                    if x < 50 { x = x + 1 }
                    if x == 50 { removeObserver(self, forKeyPath: "nope") }
                }
            }
            let a = A()
            a.addObserver(a, forKeyPath: "x")
            do { a.x = 1 } catch NSRangeException { print("caught at top: \\(a.x)") }
            a.x = 100
            print("end")

            """, .success, arguments: ["--quiet"])
        #expect(result.out.contains("caught at top: 50"), "\(result)")
        #expect(result.out.hasSuffix("end\n"), "\(result)")
    }

    @Test func observerReleasesItselfDuringDelivery() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P { func observeValue(keyPath, object, change, context) { release(self) } }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2

            """, .runtimeError, message: "message sent to deallocated instance <P: p>")
        #expect(result.out == "a.x → p {kind = 1; new = 1}\n", "\(result)")
    }

    @Test func observerReleasesTheObservedObjectAndAnotherObserverDuringDelivery() throws {
        try A.check(
            """
            class A { var x: Int = 0 }
            class P { var other: P?
                func observeValue(keyPath, object, change, context) {
                    release(other)
                    release(object)
                    print(object.x)
                } }
            let a = A()
            let p = P()
            let q = P()
            p.other = q
            q.other = p
            a.addObserver(p, forKeyPath: "x", options: [.new, .prior])
            a.addObserver(q, forKeyPath: "x", options: [.new, .prior])
            a.x = 1
            a.x = 2
            print(a.x)
            release(a)
            print("end")

            """, .runtimeError, arguments: ["--keep-going"])
    }

    @Test func releaseInsideAPriorNotificationOfANestedChange() throws {
        try A.check(
            """
            class A {
                var x: Int = 0
                var y: Int = 0
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "x" { y = y + 1 }
                    if keyPath == "y" { release(self) }
                }
            }
            let a = A()
            a.addObserver(a, forKeyPath: "x", options: [.prior])
            a.addObserver(a, forKeyPath: "y", options: [.prior])
            a.x = 1
            print("end")

            """, .runtimeError, message: "use of released object <A: a>")
    }
}
