import _KVOTestSupport
import KVOHost
import Testing
import KVOCore
@testable import KVOScript

/// The Swift spellings of the scenario language (SPEC §11.2, §11.3, §11.5),
/// which need no import: `observe` tokens, `NSStringFromClass(object_getClass(…))`,
/// validation. A Swift program (`import Foundation` first) is compiled by
/// kvo-run's Swift route, never interpreted: its behaviour is pinned by
/// KVORunTests' SwiftKVOProgramTests and the goldens in scenarios/swift/.
@Suite struct ScenarioSwiftSpellingsTests {
    func expectRun(
        _ source: String, status: Int32 = 0, out: String, err: String = "",
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = run(source)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == out, sourceLocation: sourceLocation)
        #expect(result.err == err, sourceLocation: sourceLocation)
    }

    @Test func withoutTheImportEveryVarIsDynamicAsBefore() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            let acct = Account()
            let token = acct.observe(\\.balance, options: [.new]) { a, change in print(change.newValue) }
            acct.balance = 2
            print(acct)
            """, out: "acct.balance → token {kind = 1; new = 2}\n  2\n<Account: acct>\n")
    }

    @Test func scenarioClassesHaveNoModulePrefix() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            class W { func observeValue(keyPath, object, change, context) {} }
            let acct = Account()
            let w = W()
            acct.addObserver(w, forKeyPath: "balance")
            print(NSStringFromClass(object_getClass(acct)))
            """, out: "NSKVONotifying_Account\n")
    }

    /// The library does not interpret Swift: handed a program that imports
    /// Foundation first, a Session says where Swift programs go, at the import.
    @Test func aSwiftProgramIsRefusedAtItsImport() {
        let result = check("// a note\nimport Foundation\nprint(1)\n")
        #expect(result.status == 2, "\(result)")
        #expect(
            result.err == """
                t.kvo:2:1: error: this is a Swift program ('import Foundation' first), which kvo-run compiles with \
                swiftc rather than interpreting: run it with 'kvo-run FILE' (or 'kvo-run check FILE'); without the \
                import it is a scenario
                import Foundation
                ^~~~~~

                """)
        #expect(run("import Foundation\nprint(1)\n").out == "", "nothing of it runs")
        let later = check("class A { }\nimport Foundation\n")
        #expect(later.status == 2)
        #expect(
            later.err.hasPrefix(
                "t.kvo:2:1: error: 'import Foundation' must be the first statement: it makes the file a Swift "
                    + "program, which kvo-run compiles with swiftc; a scenario has no import"), "\(later)")
        let other = check("import Combine\n")
        #expect(other.status == 2)
        #expect(other.err.hasPrefix("t.kvo:1:1: error: a scenario has no imports"), "\(other)")
    }

    @Test func aDiscardedTokenEndsAtOnce() {
        let result = run(
            """
            class Account { var balance: Double = 0 }
            let acct = Account()
            _ = acct.observe(\\.balance, options: [.initial]) { a, c in print("initial") }
            acct.observe(\\.balance) { a, c in print("never") }
            acct.balance = 1
            print(acct.observationInfo)
            """)
        #expect(result.out == "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  initial\nnil\n")
        #expect(
            result.err.contains(
                "t.kvo:4:5: warning: result of call to 'observe(_:options:changeHandler:)' is unused; "
                    + "the observation ends at once"))
    }

    /// Issue 27: releasing an object ends the tokens held in its properties,
    /// also those held in an array property.
    @Test func releasingTheHolderEndsTheTokensInItsProperties() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            let acct = Account()
            class Monitor {
                var token: NSKeyValueObservation?
                var more: [NSKeyValueObservation] = []
                func start() {
                    token = acct.observe(\\.balance) { a, c in print("monitor sees", a.balance) }
                    more.append(acct.observe(\\.balance) { a, c in print("more sees", a.balance) })
                }
            }
            let monitor = Monitor()
            monitor.start()
            acct.balance = 1
            release(monitor)
            acct.balance = 2
            print(acct.observationInfo)
            """,
            out: """
                acct.balance → NSKeyValueObservation#2 {kind = 1}
                  more sees 1
                acct.balance → NSKeyValueObservation#1 {kind = 1}
                  monitor sees 1
                nil

                """)
    }

    /// SPEC §11.5's `validate<Key>` and NSError, in the scenario language.
    @Test func validationCallsValidateKeyAndThrowsNSError() {
        let result = run(
            """
            class Contact {
                var name: String = ""
                func validateName(value) {
                    if value == nil { return "" }
                    if value.count > 8 { throw NSError(domain: "Contact", code: 1, description: "Name too long") }
                    return value.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
                }
            }
            let contact = Contact()
            print(contact.validateValue("  Ann ", forKey: "name"))
            do {
                contact.validateValue("Bartholomew", forKey: "name")
            } catch {
                print(error.domain, error.code, error.localizedDescription)
            }
            print(contact.name.isEmpty)
            """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.out == """
                ANN
                *** NSError (caught): Error Domain=Contact Code=1 "Name too long" UserInfo={NSLocalizedDescription=Name too long}
                Contact 1 Name too long
                true

                """)
    }
}
