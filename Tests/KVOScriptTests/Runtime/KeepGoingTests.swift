import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// --keep-going: a runtime error or exception stops the statement, and the run goes on.
@Suite struct KeepGoingTests: RunExpectations {
    @Test func keepGoingContinuesAfterAnExceptionAndAnError() {
        expectRun(
            Self.observed + """
                acct.removeObserver(alice, forKeyPath: "balance")
                print("after the exception")
                print(1 / 0)
                print("after the error")
                """, options: options(keepGoing: true), status: 1,
            out: """
                *** Statement stopped by uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path "balance" from <Account acct> because it is not registered as an observer.'
                after the exception
                after the error

                """,
            err: """
                t.kvo:5:20: note: the uncaught exception 'NSRangeException' was raised here
                acct.removeObserver(alice, forKeyPath: "balance")
                                   ^
                t.kvo:7:9: error: division by zero
                print(1 / 0)
                        ^

                """)
    }

    @Test func keepGoingWithNothingWrongIsStatusZero() {
        expectRun("print(1)\n", options: options(keepGoing: true), status: 0, out: "1\n")
    }

    @Test func keepGoingDoesNotRunAScriptWithErrors() {
        expectRun(
            "print(1)\nprint(nope)\n", options: options(keepGoing: true), status: 2, out: "",
            err: """
                t.kvo:2:7: error: cannot find 'nope' in scope
                print(nope)
                      ^~~~

                """)
    }
}
