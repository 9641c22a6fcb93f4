import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Details of the text output format (docs/language.md#output).
@Suite struct TextOutputTests: RunExpectations {
    @Test func handlerOutputIsIndented() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            class Person {
                func observeValue(keyPath, object, change, context) {
                    print("saw", change.new)
                }
            }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.balance = 5
            """, status: 0,
            out: """
                acct.balance → alice {kind = 1; new = 5}
                  saw 5

                """)
    }

    @Test func quietCountsNotificationsInsteadOfPrintingThem() {
        var quiet = RunOptions()
        quiet.quiet = true
        expectRun(
            Self.observed + """
                acct.addObserver(alice, forKeyPath: "balance")
                acct.balance = 1
                print("done")
                """, options: quiet, status: 0, out: "done\n")
    }

    @Test func quietStillRunsTheGettersANotificationReads() {
        // --quiet builds no change dictionary, but a new value read through a
        // getter or a key path is still read, for what the getter does; the
        // old value is read at will time as always.
        var quiet = RunOptions()
        quiet.quiet = true
        expectRun(
            """
            func note(what, x) {
                print("read", what, x)
                return x * 2
            }
            class Account {
                var balance: Int = 0
                @affectedBy(balance)
                var audited: Int { note("audited", balance) }
            }
            class Person {
                var account: Account?
                @affectedBy(account.balance)
                var worth: Int { note("worth", account.balance) }
            }
            class Watcher { }
            let acct = Account()
            let p = Person(account: acct)
            let w = Watcher()
            acct.addObserver(w, forKeyPath: "audited", options: [.new])
            p.addObserver(w, forKeyPath: "account.audited", options: [.new])
            p.addObserver(w, forKeyPath: "worth", options: [.old])
            acct.balance = 1
            print("done")
            """, options: quiet, status: 0, out: "read worth 0\nread audited 1\nread audited 1\ndone\n")
    }

    /// An array holding itself twice per level, forty levels: 2^40 leaves. The
    /// JSON encoder stops past `Value.descriptionLimit` bytes with `"…"` and
    /// closes what it opened, so the line stays valid JSON.
    @Test func jsonEncodingOfASelfDoublingArrayIsCut() {
        var value = Value.array([.int(1)])
        for _ in 0..<40 { value = .array([value, value]) }
        let json = JSONFormat.encode(value)
        #expect(json.utf8.count > Value.descriptionLimit)
        #expect(json.utf8.count < Value.descriptionLimit + 4096)
        #expect(json.contains("\"…\""))
        let opened = json.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "[") ? 1 : 0) }
        let closed = json.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "]") ? 1 : 0) }
        #expect(opened == closed)
    }
}
