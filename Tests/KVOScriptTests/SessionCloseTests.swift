import KVOCore
import Testing
import _KVOTestSupport

@testable import KVOScript

/// `Session.close()`: the observances left registered at the end of a run
/// hold their objects (an observance holds what it observes, which holds
/// its observation info), so a host that runs many scenarios (`kvo-run
/// serve`, the REPL's `:reset`) frees a run's objects only through it.
@Suite struct SessionCloseTests {
    final class WeakObjects {
        var objects: [() -> KVOObject?] = []
        var alive: Int { objects.filter { $0() != nil }.count }
    }

    /// Runs `source`, keeps weak references to the objects `names` hold,
    /// then closes the session (or not) and lets it go.
    func objectsLeft(_ source: String, names: [String], closing: Bool) -> Int {
        let weak = WeakObjects()
        onLargeStack {
            let (session, _, err) = capturingSession()
            #expect(session.run(source, file: "t.kvo") == 0, "\(err.capturedText)")
            for name in names {
                guard case .object(let object)? = session.globalValue(name) else {
                    Issue.record("\(name) holds no object")
                    continue
                }
                weak.objects.append { [weak object] in object }
            }
            if closing { session.close() }
        }
        return weak.alive
    }

    static let observed = """
        class Account { var balance: Double = 0; var owner: Person? }
        class Person { var account: Account? }
        let acct = Account()
        let alice = Person(account: acct)
        let bob = Person()
        acct.addObserver(alice, forKeyPath: "balance", options: [.new])
        alice.addObserver(bob, forKeyPath: "account.balance")
        let list = [acct, alice]
        acct.balance = 1

        """

    @Test func observedObjectsAreFreedOnlyOnceTheSessionIsClosed() {
        let names = ["acct", "alice", "bob"]
        // Without close(), the observed objects (acct, alice, and acct again
        // through the key path's forward) outlive the session.
        #expect(objectsLeft(Self.observed, names: names, closing: false) > 0)
        #expect(objectsLeft(Self.observed, names: names, closing: true) == 0)
    }

    @Test(arguments: [
        "class A { var x: Int = 0 }\nclass P { }\nlet a = A()\nlet p = P()\na.addObserver(p, forKeyPath: \"x\")\n",
        "class A { var x: Int = 0 }\nclass P { }\nlet a = A()\nlet p = P()\na.addObserver(p, forKeyPath: \"x\")\na.x = 1\n",
        "class A { var x: Int = 0 }\nclass P { var a: A? }\nlet a = A()\nlet p = P(a: a)\np.addObserver(p, forKeyPath: \"a.x\")\n",
        "class A { var x: Int = 0 }\nclass P { }\nlet a = A()\nlet p = P()\na.addObserver(p, forKeyPath: \"x\", options: [.new])\na.x = 1\n",
    ])
    func eachShapeIsFreed(source: String) {
        #expect(objectsLeft(source, names: ["a", "p"], closing: true) == 0, "\(source)")
    }

    @Test func objectsWithoutObservancesNeverNeededIt() {
        let source = "class A { var x: Int = 0 }\nlet a = A()\nlet b = [A(), A()]\n"
        #expect(objectsLeft(source, names: ["a"], closing: false) == 0)
    }

    @Test func resetClosesTheSessionsObjects() {
        let weak = WeakObjects()
        onLargeStack {
            let (session, _, _) = capturingSession()
            _ = session.run(Self.observed, file: "t.kvo")
            if case .object(let object)? = session.globalValue("acct") {
                weak.objects.append { [weak object] in object }
            }
            session.reset()
        }
        #expect(weak.alive == 0)
    }
}
