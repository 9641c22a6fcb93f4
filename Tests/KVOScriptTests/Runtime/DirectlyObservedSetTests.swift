import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// A set of a stored property whose observers all watch it directly runs
/// without a pending change (`KVORuntime.setDirectlyObserved`). Each scenario
/// here runs twice: with `balance` stored, which takes that path, and with a
/// setter storing into its instance variable, which takes `willChange`, the
/// setter and `didChange`; both must print the same, and what is pinned.
@Suite struct DirectlyObservedSetTests: RunExpectations {
    /// The scenario with `balance` declared as `declaration`.
    private func scenario(_ body: String, declaration: String) -> String {
        """
        class Account {
            \(declaration)
            var label: String = ""
        }
        class Person { }

        """ + body
    }

    private static let stored = "var balance: Double = 0"
    private static let throughSetter = """
        var balance: Double = 0 {
                set { _balance = newValue }
            }
        """

    /// Runs `body` both ways, expecting `out` and `status` from each, and an
    /// error output containing `errorMessage` (none when nil: the two ways
    /// point at different lines).
    private func expectBothWays(
        _ body: String, options: RunOptions = RunOptions(), status: Int32 = 0, out: String,
        errorMessage: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        expectEachVariant(
            [Self.stored, Self.throughSetter], of: { scenario(body, declaration: $0) }, options: options,
            status: status, out: out,
            errorMessage: errorMessage, sourceLocation: sourceLocation)
    }

    @Test func observersAreToldNewestFirstWithTheirOwnOptions() {
        expectBothWays(
            """
            let acct = Account()
            let alice = Person()
            let bob = Person()
            let carol = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
            acct.addObserver(bob, forKeyPath: "balance", options: [.old])
            acct.addObserver(carol, forKeyPath: "label", options: [.new])
            acct.addObserver(carol, forKeyPath: "balance", options: [])
            acct.balance = 5
            acct.balance = 7
            """,
            out: """
                acct.balance → carol {kind = 1}
                acct.balance → bob {kind = 1; old = 0}
                acct.balance → alice {kind = 1; new = 5; old = 0}
                acct.balance → carol {kind = 1}
                acct.balance → bob {kind = 1; old = 5}
                acct.balance → alice {kind = 1; new = 7; old = 5}

                """)
    }

    @Test func anObserverRemovedByAnEarlierHandlerIsNotTold() {
        expectBothWays(
            """
            class Remover {
                var target: Account?
                var victim: Person?
                func observeValue(keyPath, object, change, context) {
                    print("remover sees \\(change["new"])")
                    if victim != nil {
                        target.removeObserver(victim, forKeyPath: "balance")
                        victim = nil
                    }
                }
            }
            let acct = Account()
            let alice = Person()
            let remover = Remover()
            remover.target = acct
            remover.victim = alice
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.addObserver(remover, forKeyPath: "balance", options: [.new])
            acct.balance = 1
            acct.balance = 2
            """,
            out: """
                acct.balance → remover {kind = 1; new = 1}
                  remover sees 1
                acct.balance → remover {kind = 1; new = 2}
                  remover sees 2

                """)
    }

    @Test func aHandlerThatSetsTheKeyAgainIsSeenByTheObserversAfterIt() {
        // The later (older) observer reads the value after the nested change
        // as its new value, and keeps the old value of its own change.
        expectBothWays(
            """
            class Doubler {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    if target.balance < 100 {
                        target.balance = target.balance * 10
                    }
                }
            }
            let acct = Account()
            let alice = Person()
            let doubler = Doubler()
            doubler.target = acct
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
            acct.addObserver(doubler, forKeyPath: "balance", options: [.new])
            acct.balance = 3
            print(acct.balance)
            """,
            out: """
                acct.balance → doubler {kind = 1; new = 3}
                  acct.balance → doubler {kind = 1; new = 30}
                    acct.balance → doubler {kind = 1; new = 300}
                    acct.balance → alice {kind = 1; new = 300; old = 30}
                  acct.balance → alice {kind = 1; new = 300; old = 3}
                acct.balance → alice {kind = 1; new = 300; old = 0}
                300

                """)
    }

    @Test func aValueOfTheWrongTypeIsRefusedAndLeavesNoChangePending() {
        // After the refused set, the next set is a change of its own: its
        // old value is the one stored before.
        expectBothWays(
            """
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])
            let mixed = [1.5, "lots"]
            acct.balance = mixed[1]
            acct.balance = 4
            """, options: options(keepGoing: true), status: 1,
            out: """
                acct.balance → alice {kind = 1; new = 4; old = 0}

                """,
            errorMessage: "error: cannot store String lots in property 'balance' of Account, declared Double")
    }
}
