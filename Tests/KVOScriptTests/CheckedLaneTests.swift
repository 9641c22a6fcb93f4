import Foundation
import KVOCore
import KVOHost
import KVOOutput
import Testing
import _KVOTestSupport

@testable import KVOScript

/// What only the checked lane (`make test-checked`, KVO_CHECKED=1) can run:
/// the invariant checks exist only there, and the fast build counts
/// references non-atomically, so two sessions may not run on two threads in
/// it (Package.swift).
@Suite(.enabled(if: KVORuntime.checksInvariants, "the checks and atomic reference counting are the checked lane's"))
struct CheckedLaneTests {
    /// The machine and the engine are audited after every top-level
    /// statement, including those that observe, remove and set re-entrantly
    /// and the one that ends in an uncaught exception.
    @Test func everyStatementIsFollowedByAnInvariantCheck() {
        let source = """
            class Account {
                var balance: Double = 0
            }
            class Person {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    target.removeObserver(self, forKeyPath: "balance")
                    target.balance = 7
                }
            }
            let account = Account()
            let alice = Person()
            alice.target = account
            account.addObserver(alice, forKeyPath: "balance", options: [.new])
            account.balance = 1
            account.removeObserver(alice, forKeyPath: "balance")
            print("not reached")

            """
        let (checks, statements, status, output) = onLargeStack { () -> (Int, Int, Int32, String) in
            let (session, out, err) = capturingSession()
            var statements = 0
            session.beforeStatement = { _ in statements += 1 }
            let status = session.run(source, file: "t.kvo")
            return (session.kvo.invariantChecks, statements, status, out.capturedText + err.capturedText)
        }
        // The handler removed alice, so the last removal raises and ends the
        // run: that statement is checked too, the print is never reached.
        #expect(statements >= 6)
        #expect(checks == statements)
        #expect(status == ExitStatus.failure)
        #expect(output.contains("NSRangeException"))
        #expect(!output.contains("not reached"))
    }

    /// A session whose output fails stops itself, not another session
    /// running at the same time on another thread: the stop flag was the
    /// process's (`StopFlag.process`), so B stopped with "the output cannot
    /// be written" when A's output failed.
    @Test func outputFailingInOneSessionDoesNotStopAnotherOnAnotherThread() {
        let bStarted = DispatchSemaphore(value: 0)
        let aFailed = DispatchSemaphore(value: 0)
        let results = ThreadResults()
        let a = Thread {
            bStarted.wait()
            let writer = OutputWriter(capturing: ())
            writer.captureLimit = 16
            let session = Session.commandLine(
                options: RunOptions(), output: EventRenderer(format: .text, out: writer, err: writer))
            _ = session.run("print(\"more than sixteen bytes\")\nprint(\"again\")\n", file: "a.kvo")
            results.set(a: (session.stop.pending, writer.failure))
            aFailed.signal()
        }
        let b = Thread {
            let (session, out, err) = capturingSession()
            session.beforeStatement = { location in
                guard location.line == 2 else { return }
                bStarted.signal()
                aFailed.wait()
            }
            let status = session.run("print(\"before\")\nprint(\"after\")\n", file: "b.kvo")
            results.set(b: (status, out.capturedText + err.capturedText))
        }
        a.start()
        b.start()
        results.wait(for: 2)
        // A's own flag says its output failed; B's never did.
        #expect(results.a?.failure != nil)
        #expect(results.a?.stop == .outputFailed)
        #expect(results.b?.status == ExitStatus.success)
        #expect(results.b?.output == "before\nafter\n")
    }
}

private final class ThreadResults: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = 0
    private(set) var a: (stop: StopFlag.Reason?, failure: String?)?
    private(set) var b: (status: Int32, output: String)?

    func set(a value: (StopFlag.Reason?, String?)) { finish { a = value } }
    func set(b value: (Int32, String)) { finish { b = value } }

    private func finish(_ body: () -> Void) {
        condition.lock()
        body()
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(for count: Int) {
        condition.lock()
        while finished < count { condition.wait() }
        condition.unlock()
    }
}
