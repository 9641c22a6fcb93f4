import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// A set of a stored property whose observers all watch one computed key
/// depending on it, with a pure getter (PureGetter.swift), runs without a
/// pending change: the getter is read for the old value where the will
/// phase reads it and for the new value at delivery
/// (`KVORuntime.setWatchedThroughDependent`). Each scenario here runs twice:
/// with `doubled` pure (that path) and with `doubled` reading a global
/// (impure, so the will, the store and the did as before); both must print
/// the same, and what is pinned.
@Suite struct DependentDirectSetTests: RunExpectations {
    /// The scenario with `doubled`'s body `body`.
    private func scenario(_ body: String, doubled: String) -> String {
        """
        var two = 2.0
        class Account {
            var balance: Double = 0
            @affectedBy(balance)
            var doubled: Double { \(doubled) }
            @affectedBy(balance)
            var label: String { "\\(doubled) left" }
        }
        class Person { }

        """ + body
    }

    /// Runs `body` with `doubled` pure and impure, expecting `out` and
    /// `status` from each, and an error output containing `errorMessage`
    /// (none when nil).
    private func expectBothWays(
        _ body: String, options: RunOptions = RunOptions(), status: Int32 = 0, out: String,
        errorMessage: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        expectEachVariant(
            ["balance * 2", "balance * two"], of: { scenario(body, doubled: $0) }, options: options,
            status: status, out: out, errorMessage: errorMessage, sourceLocation: sourceLocation)
    }

    @Test func observersOfTheDependentKeyAreToldNewestFirstWithTheirOwnOptions() {
        expectBothWays(
            """
            let acct = Account()
            let alice = Person()
            let bob = Person()
            let carol = Person()
            acct.addObserver(alice, forKeyPath: "label", options: [.new, .old])
            acct.addObserver(bob, forKeyPath: "label", options: [.old])
            acct.addObserver(carol, forKeyPath: "label", options: [])
            acct.balance = 5
            acct.setValue(7, forKey: "balance")
            """,
            out: """
                acct.label → carol {kind = 1}
                acct.label → bob {kind = 1; old = "0 left"}
                acct.label → alice {kind = 1; new = "10 left"; old = "0 left"}
                acct.label → carol {kind = 1}
                acct.label → bob {kind = 1; old = "10 left"}
                acct.label → alice {kind = 1; new = "14 left"; old = "10 left"}

                """)
    }

    @Test func aHandlerThatSetsTheKeyAgainIsSeenByTheObserversAfterIt() {
        expectBothWays(
            """
            class Grower {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    if target.balance < 100 {
                        target.balance = target.balance * 10
                    }
                }
            }
            let acct = Account()
            let alice = Person()
            let grower = Grower()
            grower.target = acct
            acct.addObserver(alice, forKeyPath: "doubled", options: [.new, .old])
            acct.addObserver(grower, forKeyPath: "doubled", options: [.new])
            acct.balance = 3
            print(acct.label)
            """,
            out: """
                acct.doubled → grower {kind = 1; new = 6}
                  acct.doubled → grower {kind = 1; new = 60}
                    acct.doubled → grower {kind = 1; new = 600}
                    acct.doubled → alice {kind = 1; new = 600; old = 60}
                  acct.doubled → alice {kind = 1; new = 600; old = 6}
                acct.doubled → alice {kind = 1; new = 600; old = 0}
                600 left

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
                        target.removeObserver(victim, forKeyPath: "label")
                        victim = nil
                    }
                }
            }
            let acct = Account()
            let alice = Person()
            let remover = Remover()
            remover.target = acct
            remover.victim = alice
            acct.addObserver(alice, forKeyPath: "label", options: [.new])
            acct.addObserver(remover, forKeyPath: "label", options: [.new])
            acct.balance = 1
            acct.balance = 2
            """,
            out: """
                acct.label → remover {kind = 1; new = "2 left"}
                  remover sees 2 left
                acct.label → remover {kind = 1; new = "4 left"}
                  remover sees 4 left

                """)
    }

    @Test func aValueOfTheWrongTypeIsRefusedAndLeavesNoChangePending() {
        expectBothWays(
            """
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "label", options: [.new, .old])
            let mixed = [1.5, "lots"]
            acct.balance = mixed[1]
            acct.balance = 4
            """, options: options(keepGoing: true), status: 1,
            out: """
                acct.label → alice {kind = 1; new = "8 left"; old = "0 left"}

                """,
            errorMessage: "error: cannot store String lots in property 'balance' of Account, declared Double")
    }

    @Test func observersOfTheKeyAndOfADependentKeyOrAPriorOneTakeTheWillAndDid() {
        // Two properties observed, or `.prior`: not a direct set either way.
        expectBothWays(
            """
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.addObserver(alice, forKeyPath: "label", options: [.new, .old])
            acct.balance = 1
            acct.removeObserver(alice, forKeyPath: "balance")
            acct.addObserver(alice, forKeyPath: "doubled", options: [.prior, .old])
            acct.balance = 2
            """,
            out: """
                acct.label → alice {kind = 1; new = "2 left"; old = "0 left"}
                acct.balance → alice {kind = 1; new = 1}
                acct.doubled → alice {kind = 1; notificationIsPrior = 1; old = 2}
                acct.doubled → alice {kind = 1; old = 2}
                acct.label → alice {kind = 1; new = "4 left"; old = "2 left"}

                """)
    }
}
