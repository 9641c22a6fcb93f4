import KVOCore
import Testing
import _KVOTestSupport
@testable import KVOScript

/// The session answers the REPL's meta-commands and `:save` with data; the
/// words are the REPL's (KVORun's `REPLWording`, pinned by the REPL tests).
@Suite struct SessionDataTests {
    @Test func summariesAndInfoProblemsAreData() {
        let session = capturingSession().session
        _ = onLargeStack {
            session.runEntry(
                "class Account { var balance: Int = 0 }\nlet acct = Account()\nlet n = 1\n", file: "<repl>"
            ) { _ in }
        }
        #expect(
            session.objectSummary == [ObjectSummary(name: "acct", description: "<Account: acct>", state: .notObserved)])
        #expect(
            session.classSummary == [
                ClassSummary(
                    name: "Account", superclass: "NSObject",
                    properties: [ClassSummary.Property(name: "balance", type: "Int")])
            ])
        #expect(session.showObservationInfo(of: "n") == .notAnObject("n", typeName: "Int"))
        #expect(session.showObservationInfo(of: "a)") == .notAName(shown: "a)"))
        #expect(
            session.showObservationInfo(of: "acc")
                == .noVariable("acc", suggestion: Suggestion.didYouMean("acc", in: session.namesInScope)))
    }

    @Test func anObservedObjectCountsItsObservances() {
        let session = capturingSession().session
        _ = onLargeStack {
            session.runEntry(
                """
                class Account { var balance: Int = 0 }
                class Watcher { func observeValue(keyPath, object, change, context) { } }
                let acct = Account()
                let w = Watcher()
                acct.addObserver(w, forKeyPath: "balance", options: [.new], context: nil)
                """, file: "<repl>"
            ) { _ in }
        }
        #expect(session.objectSummary.first { $0.name == "acct" }?.state == .observed(observances: 1))
    }

    @Test func theReplayIsData() {
        let session = capturingSession().session
        let result = onLargeStack {
            session.runEntry("let a = 1\nprint(1 / 0)\nprint(2)\n", file: "<repl>") { _ in }
        }
        #expect(
            result.replay == [
                .asTyped("let a = 1"), .commentedOut("print(1 / 0)", because: .stoppedByRuntimeError),
                .commentedOut("print(2)", because: .notRun),
            ])
    }

    /// The words after a problem raised in an earlier entry's code are the front end's.
    @Test func theEarlierEntryNoteIsTheFrontEnds() {
        let (session, _, err) = capturingSession()
        session.earlierEntryNote = " [elsewhere]"
        _ = onLargeStack {
            _ = session.runEntry("func f() { let z = 1 / 0 }\n", file: "<repl>") { _ in }
            return session.runEntry("print(1); f()\n", file: "<repl>") { _ in }
        }
        #expect(err.capturedText.contains("<repl>:1:11: error: division by zero [elsewhere]"), "\(err.capturedText)")
    }
}

/// Entry markers are found by their bytes (`UTF8Search`), not by
/// `String.contains`, whose Character table cost every start-up a scan of
/// the binary's conformance records.
@Suite struct EntryMarkerSearchTests {
    @Test func findsTheMarkerByItsBytes() {
        #expect(UTF8Search.contains(Session.entryMarker, in: "a\n// kvo-run: next entry\nb"))
        #expect(UTF8Search.contains(Session.entryMarker, in: Session.entryMarker))
        #expect(!UTF8Search.contains(Session.entryMarker, in: "// kvo-run: next entr"))
        #expect(!UTF8Search.contains(Session.entryMarker, in: ""))
        #expect(UTF8Search.contains("", in: "anything"))
        #expect(UTF8Search.contains(Session.entryMarker, in: "ééé// kvo-run: next entry"))
        #expect(!UTF8Search.contains(Session.entryMarker, in: "print(1)\n"))
        #expect(Session.entries(of: "print(1)\n") == nil)
        #expect(Session.entries(of: "print(1)\n// kvo-run: next entry\nprint(2)\n")?.count == 2)
    }
}
