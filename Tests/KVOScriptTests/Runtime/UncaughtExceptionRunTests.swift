import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Exceptions (docs/language.md#exceptions): what an uncaught one prints and the status it ends with.
@Suite struct UncaughtExceptionRunTests: RunExpectations {
    @Test func uncaughtExceptionEndsTheRun() {
        expectRun(
            Self.observed + """
                acct.removeObserver(alice, forKeyPath: "balance")
                print("not reached")
                """, status: 1,
            out: """
                *** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path "balance" from <Account acct> because it is not registered as an observer.'

                """,
            err: """
                t.kvo:5:20: note: the uncaught exception 'NSRangeException' was raised here
                acct.removeObserver(alice, forKeyPath: "balance")
                                   ^

                """)
    }

    @Test func uncaughtUndefinedKey() {
        expectRun(
            Self.observed + "print(acct.value(forKey: \"nope\"))\n", status: 1,
            out: """
                *** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope.'

                """,
            err: """
                t.kvo:5:26: warning: Account has no key 'nope' (Apple raises NSUnknownKeyException when this runs)
                print(acct.value(forKey: "nope"))
                                         ^~~~~~
                t.kvo:5:6: note: the uncaught exception 'NSUnknownKeyException' was raised here
                print(acct.value(forKey: "nope"))
                     ^

                """)
    }

    @Test func caughtExceptionIsReportedAndTheRunGoesOn() {
        expectRun(
            Self.observed + """
                do {
                    acct.setValue(1, forKey: "nope")
                    print("not reached")
                } catch NSUnknownKeyException {
                    print(error.name)
                }
                print("after")
                """, status: 0,
            out: """
                *** NSUnknownKeyException (caught): [<Account acct> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key nope.
                NSUnknownKeyException
                after

                """)
    }

    @Test func aCatchForAnotherNameDoesNotHandleIt() {
        expectRun(
            Self.observed + """
                do {
                    acct.removeObserver(alice, forKeyPath: "balance")
                } catch NSUnknownKeyException {
                    print("not this handler")
                }
                print("not reached")
                """, status: 1,
            out: """
                *** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path "balance" from <Account acct> because it is not registered as an observer.'

                """,
            err: """
                t.kvo:6:24: note: the uncaught exception 'NSRangeException' was raised here
                    acct.removeObserver(alice, forKeyPath: "balance")
                                       ^

                """)
    }
}
