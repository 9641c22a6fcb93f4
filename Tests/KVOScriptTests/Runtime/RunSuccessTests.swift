import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Scenarios that run to the end (status 0), with exactly what they print.
@Suite struct RunSuccessTests: RunExpectations {
    @Test func theSpecsFirstScenario() {
        // The bank scenario of docs/language.md#first-scenario, with the context's longer name.
        expectRun(
            """
            // bank.kvo
            context PersonAccountBalanceContext

            class Account {
                var balance: Double = 0
                var interestRate: Double = 0.05
            }

            class Person {
                var name: String = ""
            }

            let acct = Account(balance: 100)
            let alice = Person(name: "Alice")

            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old],
                             context: PersonAccountBalanceContext)
            acct.balance = 200
            acct.setValue(250, forKey: "balance")
            acct.removeObserver(alice, forKeyPath: "balance", context: PersonAccountBalanceContext)
            acct.removeObserver(alice, forKeyPath: "balance")     // not registered any more
            """, status: 1,
            out: """
                acct.balance → alice {kind = 1; new = 200; old = 100} context: PersonAccountBalanceContext
                acct.balance → alice {kind = 1; new = 250; old = 200} context: PersonAccountBalanceContext
                *** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path "balance" from <Account acct> because it is not registered as an observer.'

                """,
            err: """
                t.kvo:21:20: note: the uncaught exception 'NSRangeException' was raised here
                acct.removeObserver(alice, forKeyPath: "balance")     // not registered any more
                                   ^

                """)
    }

    @Test func aCleanRunHasStatusZero() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance")
            acct.balance = 1
            print("total:", 1 + 2.5)
            """, status: 0,
            out: """
                acct.balance → alice {kind = 1}
                total: 3.5

                """)
    }
}
