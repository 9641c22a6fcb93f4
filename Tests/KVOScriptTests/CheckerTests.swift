import _KVOTestSupport
import Foundation
import KVOHost
import Synchronization
import Testing
@testable import KVOScript

/// docs/language.md#diagnostics: the whole file is parsed and checked before anything runs; each
/// problem is reported as `file:line:col: error: message`, the source line and
/// a caret line, and the status is 2.
///
/// Expectations are written inline, FindingSpec-style: the source, then the
/// exact diagnostic with its source line and caret.
@Suite struct CheckerTests {
    /// Checks `source` and expects status 2 and exactly `diagnostics` (each the
    /// three-line rendering) on standard error, and nothing on standard output.
    func expectErrors(
        _ source: String, _ diagnostics: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = check(source)
        #expect(result.status == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == "", sourceLocation: sourceLocation)
        #expect(result.err == diagnostics.map { $0 + "\n" }.joined(), sourceLocation: sourceLocation)
    }

    @Test func didYouMeanIsTheSameWhateverTheOrderOfTheCandidates() {
        // Names in scope come from dictionaries, in an order that changes from
        // run to run; the suggestion must not. Ties in the distance ignoring
        // case go to the nearer spelling with case, then alphabetically.
        for candidates in [["Person", "person"], ["person", "Person"]] {
            #expect(Suggestion.closest(to: "personI", in: candidates) == "person")
        }
        for candidates in [["cab", "bat"], ["bat", "cab"]] {
            #expect(Suggestion.closest(to: "cat", in: candidates) == "bat")
        }
        #expect(Suggestion.closest(to: "balance", in: ["x", "y"]) == nil)
    }

    /// A Swift program's key-path strings (SPEC §9, §11.0): a key nobody
    /// has is a warning only near a key the program has (a transposed pair
    /// of letters counts as near); each key of a path is checked, operators
    /// are skipped, and a key nothing resembles (a defaults key) is silent.
    @Test func keyPathStringsOfASwiftProgramGetADidYouMean() {
        let known: Set<String> = ["name", "age", "employees", "salary"]
        let candidates = known.sorted()
        func warning(_ path: String, _ call: String = "addObserver") -> String? {
            KeyPathStringCheck.warning(path: path, call: call, known: known, candidates: candidates)
        }
        #expect(
            warning("nmae")
                == "no class in this program has a key 'nmae'; did you mean 'name'? (Apple registers it silently and never notifies)"
        )
        #expect(
            warning("agee", "value")?.hasSuffix(
                "did you mean 'age'? (Apple raises NSUnknownKeyException when this runs)") == true)
        #expect(warning("employees.@sum.salry")?.contains("'salry'; did you mean 'salary'") == true)
        #expect(warning("employees.@avg.salary") == nil)
        #expect(warning("colourScheme") == nil)
        #expect(warning("name") == nil)
    }

    /// The suggestions' budget belongs to one run (a task-local bound by the
    /// session), not to the process: a spent one stops only its own run's
    /// suggestions, and another thread's run has its own.
    @Test func eachRunSpendsItsOwnSuggestionBudget() {
        let spent = Suggestion.Work()
        spent.cellsLeft = 0
        Suggestion.Work.$current.withValue(spent) {
            #expect(Suggestion.closest(to: "balanse", in: ["balance"]) == nil)
            let done = DispatchSemaphore(value: 0)
            let answer = Mutex<String?>(nil)
            let thread = Thread {
                answer.withLock { $0 = Suggestion.closest(to: "balanse", in: ["balance"]) }
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(answer.withLock { $0 } == "balance")
        }
        #expect(Suggestion.closest(to: "balanse", in: ["balance"]) == "balance")
    }

    /// A fuzzer's find: classes are declared superclass first however the
    /// file orders them, in one pass (a 20,000-class chain written subclass
    /// first took one pass per class, each scanning them all: minutes).
    @Test func aLongInheritanceChainInReverseOrderIsDeclaredInOnePass() {
        var source = ""
        for number in stride(from: 2_000, to: 1, by: -1) {
            source += "class C\(number): C\(number - 1) { var p\(number) = \(number) }\n"
        }
        source += "class C1 { var p1 = 1 }\nlet c = C2000()\nprint(c.p1, c.p1000, c.p2000)\n"
        let result = run(source)
        #expect(result.status == 0, "\(result.err.prefix(300))")
        #expect(result.out == "1 1000 2000\n")
    }

    /// A class whose superclass could not be declared is not declared either,
    /// and says nothing more: one error for the cause, not one per subclass.
    @Test func subclassesOfAClassInError() {
        let result = check(
            """
            class C1 { var p1 = 0 }
            class C2: Cx { }
            class C3: C2 { }
            class C4: C3 { }
            """)
        #expect(result.status == 2)
        #expect(result.err.components(separatedBy: "error:").count == 2, "\(result.err)")
        #expect(result.err.hasPrefix("t.kvo:2:11: error: unknown superclass 'Cx'"), "\(result.err)")
    }

    static let account = """
        class Account {
            var balance: Double = 0
        }
        class Person {
            var name: String = ""
        }
        let acct = Account()
        let alice = Person()

        """

    // MARK: Names

    @Test func unknownClassSuggestsTheClosest() {
        expectErrors(
            Self.account + "let a = Acount()\n",
            [
                """
                t.kvo:9:9: error: unknown class 'Acount'; did you mean 'Account'?
                let a = Acount()
                        ^~~~~~
                """
            ])
    }

    @Test func unknownPropertyOnAStaticallyKnownObject() {
        expectErrors(
            Self.account + "print(acct.balnce)\n",
            [
                """
                t.kvo:9:11: error: value of type 'Account' has no property 'balnce'; did you mean 'balance'?
                print(acct.balnce)
                          ^~~~~~~
                """
            ])
    }

    @Test func unknownPropertyAsAnAssignmentTarget() {
        expectErrors(
            Self.account + "acct.balnce = 3\n",
            [
                """
                t.kvo:9:5: error: value of type 'Account' has no property 'balnce'; did you mean 'balance'?
                acct.balnce = 3
                    ^~~~~~~
                """
            ])
    }

    @Test func unknownConstructorLabel() {
        expectErrors(
            Self.account + "let b = Account(balanse: 1)\n",
            [
                """
                t.kvo:9:17: error: 'Account' has no stored property 'balanse'; did you mean 'balance'?
                let b = Account(balanse: 1)
                                ^~~~~~~
                """
            ])
    }

    @Test func unknownVariable() {
        expectErrors(
            Self.account + "print(acc)\n",
            [
                """
                t.kvo:9:7: error: cannot find 'acc' in scope; did you mean 'acct'?
                print(acc)
                      ^~~
                """
            ])
    }

    // MARK: Built-in calls

    @Test func wrongBuiltinLabelOnAnObjectOfUnknownClass() {
        expectErrors(
            """
            func watch(o, p) {
                o.addObserver(p, forKeyPath: "balance", option: [.new])
            }
            """,
            [
                """
                t.kvo:2:6: error: incorrect argument labels in call to 'addObserver' (have 'addObserver(_:forKeyPath:option:)', expected 'addObserver(_:forKeyPath:)', 'addObserver(_:forKeyPath:context:)', 'addObserver(_:forKeyPath:options:)', 'addObserver(_:forKeyPath:options:context:)')
                    o.addObserver(p, forKeyPath: "balance", option: [.new])
                     ^~~~~~~~~~~~
                """
            ])
    }

    /// The same mistake on `acct`, whose class the checker knows, must give the
    /// same label diagnostic, not "has no method 'addObserver'".
    @Test func wrongBuiltinLabelOnAStaticallyKnownObject() {
        expectErrors(
            Self.account + #"acct.addObserver(alice, forKeyPath: "balance", option: [.new])"# + "\n",
            [
                """
                t.kvo:9:5: error: incorrect argument labels in call to 'addObserver' (have 'addObserver(_:forKeyPath:option:)', expected 'addObserver(_:forKeyPath:)', 'addObserver(_:forKeyPath:context:)', 'addObserver(_:forKeyPath:options:)', 'addObserver(_:forKeyPath:options:context:)')
                acct.addObserver(alice, forKeyPath: "balance", option: [.new])
                    ^~~~~~~~~~~~
                """
            ])
    }

    @Test func unknownMethodOnAStaticallyKnownObject() {
        expectErrors(
            Self.account + "acct.deposit(5)\n",
            [
                """
                t.kvo:9:5: error: value of type 'Account' has no method 'deposit'
                acct.deposit(5)
                    ^~~~~~~~
                """
            ])
    }

    @Test func unknownDotLiteral() {
        expectErrors(
            Self.account + #"acct.addObserver(alice, forKeyPath: "balance", options: [.neww])"# + "\n",
            [
                """
                t.kvo:9:58: error: unknown literal '.neww'; did you mean '.new'?
                acct.addObserver(alice, forKeyPath: "balance", options: [.neww])
                                                                         ^~~~~
                """
            ])
    }

    // MARK: Statements

    @Test func assignmentToALet() {
        expectErrors(
            "let total = 0\ntotal += 1\n",
            [
                """
                t.kvo:2:1: error: cannot assign to 'total': it is a 'let' constant; declare it with 'var' to change it
                total += 1
                ^~~~~
                """
            ])
    }

    @Test func assignmentToALetInsideAFunction() {
        expectErrors(
            "func f() {\n    let n = 1\n    n = 2\n}\n",
            [
                """
                t.kvo:3:5: error: cannot assign to 'n': it is a 'let' constant; declare it with 'var' to change it
                    n = 2
                    ^
                """
            ])
    }

    @Test func returnOutsideAFunction() {
        expectErrors(
            "print(1)\nreturn 5\n",
            [
                """
                t.kvo:2:1: error: 'return' outside of a function
                return 5
                ^~~~~~
                """
            ])
    }

    @Test func returnInsideATopLevelLoopIsStillOutsideAFunction() {
        expectErrors(
            "for i in 0..<3 {\n    return\n}\n",
            [
                """
                t.kvo:2:5: error: 'return' outside of a function
                    return
                    ^~~~~~
                """
            ])
    }

    // MARK: Declarations

    @Test func unknownSuperclass() {
        expectErrors(
            "class Account { }\nclass Savings: Acount { }\n",
            [
                """
                t.kvo:2:16: error: unknown superclass 'Acount'; did you mean 'Account'?
                class Savings: Acount { }
                               ^~~~~~
                """
            ])
    }

    /// Classes are hoisted: the suggestion must not depend on declaring the
    /// intended superclass first.
    @Test func unknownSuperclassDeclaredLaterStillSuggests() {
        expectErrors(
            "class Savings: Acount { }\nclass Account { }\n",
            [
                """
                t.kvo:1:16: error: unknown superclass 'Acount'; did you mean 'Account'?
                class Savings: Acount { }
                               ^~~~~~
                """
            ])
    }

    @Test func unknownTypeInAPropertyDeclaration() {
        expectErrors(
            """
            class Employee { var salary: Double = 0 }
            class Department {
                var boss: Employe
                var employees: [Employee]
            }
            """,
            [
                """
                t.kvo:3:15: error: unknown type 'Employe'; did you mean 'Employee'?
                    var boss: Employe
                              ^~~~~~~
                """
            ])
    }

    @Test func unknownExceptionNameInCatch() {
        // The caret belongs under the misspelled name, as for every other unknown name.
        expectErrors(
            #"do { print(1) } catch NSRangeExeption { print(2) }"# + "\n",
            [
                """
                t.kvo:1:23: error: unknown exception name 'NSRangeExeption'; did you mean 'NSRangeException'?
                do { print(1) } catch NSRangeExeption { print(2) }
                                      ^~~~~~~~~~~~~~~
                """
            ])
    }

    @Test func unknownExceptionNameIsReportedOnItsLine() {
        // At least the line and the message, whatever the column.
        let result = check("do {\n    print(1)\n} catch NSRangeExeption {\n    print(2)\n}\n")
        #expect(result.status == 2)
        #expect(
            result.err.contains("error: unknown exception name 'NSRangeExeption'; did you mean 'NSRangeException'?"))
    }

    /// Checking runs on the whole program before any code is compiled, so
    /// whether a computed property has a setter is known everywhere, however
    /// the declarations and uses are ordered (a top-level assignment used to
    /// be rejected because the setter was compiled after it was checked).
    @Test func aComputedPropertyWithASetterIsAssignableEverywhere() {
        let result = run(
            """
            class Person {
                var first: String = "a"
                var last: String = "b"
                var fullName: String {
                    get { first + " " + last }
                    set { first = newValue }
                }
            }
            let p = Person()
            p.fullName = "zed"
            print(p.fullName)
            func rename() { p.fullName = "q" }
            rename()
            print(p.fullName)

            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "zed b\nq b\n")
        #expect(result.err == "")
    }

    @Test func aComputedPropertyWithoutASetterIsReadOnlyEverywhere() {
        let result = check(
            """
            func early() { p.name = "x" }
            class Person {
                var name: String { "n" }
                func rename() { name = "z" }
            }
            let p = Person()
            p.name = "y"

            """)
        #expect(result.status == 2, "\(result)")
        // Three errors: in the function, in the method and at top level.
        #expect(result.err.components(separatedBy: "computed property without a setter").count - 1 == 3)
    }

    // MARK: Warnings

    static let department = """
        class Employee {
            var salary: Double = 0
        }
        class Department {
            var employees: [Employee]
            @affectedBy(employees.salary)
            var totalSalary: Double { 0 }
        }
        let dept = Department()
        print(dept.totalSalary)

        """

    static let toManyWarning = """
        t.kvo:6:17: warning: the affecting key path 'employees.salary' goes through the to-many relationship 'employees', which KVO cannot observe through: registering an observer of 'totalSalary' raises NSInvalidArgumentException. Observe each element instead (the guide's Department/totalSalary pattern)
            @affectedBy(employees.salary)
                        ^~~~~~~~~~~~~~~~

        """

    @Test func affectedByThroughAToManyPropertyIsAWarningNotAnError() {
        let result = check(Self.department)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "")
        #expect(result.err == Self.toManyWarning)
    }

    @Test func aWarningDoesNotStopTheRun() {
        let result = run(Self.department)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "0\n")
        #expect(result.err == Self.toManyWarning)
    }

    /// SPEC §9 (issue 29): Apple registers an affecting key no class has
    /// without a word, so it is a warning (it was an error) and the run goes on.
    @Test func affectedByAnUnknownKeyIsAWarning() {
        let result = check(
            """
            class Person {
                var firstName: String = ""
                @affectedBy(firstNam)
                var fullName: String { firstName }
            }
            """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.err == """
                t.kvo:3:17: warning: Person has no key 'firstNam'; did you mean 'firstName'? (Apple registers it silently and never notifies)
                    @affectedBy(firstNam)
                                ^~~~~~~~

                """)
    }

    // MARK: Mistyped keys in string literals (issue 29 item 1, SPEC §9)

    static let bank = """
        class Account {
            var balance: Double = 0
            var name: String = "Checking"
            var tags: [String] = []
            var _level = 0
            func getRank() { return 1 }
            func isOpen() { return true }
            func setColor(v) { }
            func countOfRows() { return 0 }
            func objectInRowsAtIndex(i) { return i }
        }
        class Person {
            var account: Account?
            var friends: [Person] = []
            var anything: Any? = nil
        }
        let acct = Account()
        let p = Person()

        """

    @Test(arguments: [
        (
            "acct.addObserver(p, forKeyPath: \"balanse\", options: [.new])",
            "t.kvo:19:33: warning: Account has no key 'balanse'; did you mean 'balance'? (Apple registers it silently and never notifies)\nacct.addObserver(p, forKeyPath: \"balanse\", options: [.new])\n                                ^~~~~~~~~\n"
        ),
        (
            "p.addObserver(p, forKeyPath: \"account.balanse\")",
            "t.kvo:19:30: warning: Account has no key 'balanse'; did you mean 'balance'? (Apple registers it silently and never notifies)\np.addObserver(p, forKeyPath: \"account.balanse\")\n                             ^~~~~~~~~~~~~~~~~\n"
        ),
        (
            "acct.removeObserver(p, forKeyPath: \"nam\")",
            "t.kvo:19:36: warning: Account has no key 'nam'; did you mean 'name'? (Apple removes only an observance registered with this same key path)\nacct.removeObserver(p, forKeyPath: \"nam\")\n                                   ^~~~~\n"
        ),
        (
            "print(p.value(forKeyPath: \"acount.balance\"))",
            "t.kvo:19:27: warning: Person has no key 'acount'; did you mean 'account'? (Apple raises NSUnknownKeyException when this runs)\nprint(p.value(forKeyPath: \"acount.balance\"))\n                          ^~~~~~~~~~~~~~~~\n"
        ),
    ])
    func aMistypedKeyIsAWarningWithASuggestion(_ line: String, _ warning: String) {
        let result = check(Self.bank + line + "\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.err == warning, "\(result)")
    }

    @Test func everyCallThatTakesAKeyIsChecked() {
        let calls = [
            "acct.value(forKey: \"x1\")", "acct.value(forKeyPath: \"x2\")", "acct.setValue(1, forKey: \"x3\")",
            "acct.setValue(1, forKeyPath: \"x4\")", "acct.mutableArrayValue(forKey: \"x5\")",
            "acct.mutableArrayValue(forKeyPath: \"x6\")", "acct.mutableSetValue(forKey: \"x7\")",
            "acct.addObserver(p, forKeyPath: \"x8\", options: [], context: nil)",
            "acct.removeObserver(p, forKeyPath: \"x9\", context: nil)",
        ]
        let result = check(Self.bank + calls.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result)")
        for index in 1...9 {
            #expect(result.err.contains("warning: Account has no key 'x\(index)'"), "x\(index): \(result)")
        }
    }

    /// What KVC's search finds is no typo: methods and ivars (SPEC §5), a
    /// Foundation value's own getters, collection operators, keys past a
    /// to-many or untyped property, and `self`.
    @Test func keysKVCFindsAreNotWarnedAbout() {
        let result = check(
            Self.bank + """
                acct.addObserver(p, forKeyPath: "name.length")
                acct.addObserver(p, forKeyPath: "rank")
                acct.addObserver(p, forKeyPath: "open")
                acct.addObserver(p, forKeyPath: "level")
                acct.addObserver(p, forKeyPath: "_level")
                acct.setValue(1, forKey: "color")
                print(acct.value(forKey: "rows"))
                print(acct.value(forKeyPath: "tags.@count"))
                print(acct.value(forKeyPath: "tags.whatever"))
                print(p.value(forKeyPath: "friends.account.anything"))
                print(p.value(forKeyPath: "anything.whatever"))
                print(p.value(forKeyPath: "account.self.balance"))
                print(acct.value(forKeyPath: "@count"))
                let key = "balanse"
                acct.addObserver(p, forKeyPath: key)

                """)
        #expect(result.status == 0, "\(result)")
        #expect(result.err == "", "\(result)")
    }

    /// An unknown key inside `do { … } catch` for NSUnknownKeyException is
    /// what the scenario is after (docs/language.md's examples).
    @Test func anUnknownKeyWhoseExceptionIsCaughtIsNotWarnedAbout() {
        let result = check(
            Self.bank + """
                do {
                    print(acct.value(forKey: "nope"))
                } catch NSUnknownKeyException {
                    print(error.reason)
                }
                do {
                    do { acct.setValue(1, forKey: "nope") } catch NSRangeException { }
                } catch {
                }
                do { acct.value(forKey: "nope2") } catch NSRangeException { }
                do { acct.removeObserver(p, forKeyPath: "nope") } catch NSRangeException { }
                do { acct.removeObserver(p, forKeyPath: "nope3") } catch NSUnknownKeyException { }

                """)
        #expect(result.status == 0, "\(result)")
        #expect(!result.err.contains("'nope'"), "\(result)")
        #expect(result.err.contains("Account has no key 'nope2'"), "\(result)")
        #expect(result.err.contains("Account has no key 'nope3'"), "\(result)")
    }

    @Test func aMistypedKeyWarnsAndTheRunGoesOnUnchanged() {
        let source =
            Self.bank + """
                class Watcher { func observeValue(forKeyPath keyPath, of object, change, context) { print(keyPath) } }
                let w = Watcher()
                acct.addObserver(w, forKeyPath: "balanse")
                acct.balance = 3
                print("done")

                """
        let result = run(source)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "done\n", "\(result)")
        #expect(result.err.contains("warning: Account has no key 'balanse'; did you mean 'balance'?"), "\(result)")
    }

    // MARK: Several problems, nothing runs

    @Test func everyProblemIsReportedInSourceOrder() {
        let result = check(
            Self.account + """
                let a = Acount()
                print(acct.balnce)
                let k = 1
                k = 2

                """)
        #expect(result.status == 2)
        let headers = result.err.split(separator: "\n").filter { $0.hasPrefix("t.kvo:") }
        #expect(
            headers == [
                "t.kvo:9:9: error: unknown class 'Acount'; did you mean 'Account'?",
                "t.kvo:10:11: error: value of type 'Account' has no property 'balnce'; did you mean 'balance'?",
                "t.kvo:12:1: error: cannot assign to 'k': it is a 'let' constant; declare it with 'var' to change it",
            ])
    }

    @Test func nothingRunsWhenTheCheckFails() {
        let result = run(
            Self.account + """
                acct.addObserver(alice, forKeyPath: "balance", options: [.new])
                acct.balance = 200
                print("before")
                let x = Acount()

                """)
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(
            result.err == """
                t.kvo:12:9: error: unknown class 'Acount'; did you mean 'Account'?
                let x = Acount()
                        ^~~~~~

                """)
    }

    @Test func syntaxErrorsAreReportedTheSameWay() {
        expectErrors(
            "let = 5\nprint(1)\nf(1 2)\n",
            [
                """
                t.kvo:1:5: error: expected a variable name, found '='
                let = 5
                    ^
                """,
                """
                t.kvo:3:5: error: expected ',' or ')' in the argument list, found '2'
                f(1 2)
                    ^
                """,
            ])
    }

    @Test func aCleanScenarioChecksWithStatusZeroAndNoOutput() {
        let result = check(
            Self.account + #"acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old])"#
                + "\nacct.balance = 1\n")
        #expect(result.status == 0)
        #expect(result.out == "")
        #expect(result.err == "")
    }

    @Test func checkErrorsInJSONAreEventsOnStandardOutput() {
        let result = check(Self.account + "let a = Acount()\n", format: .json)
        #expect(result.status == 2)
        #expect(result.err == "")
        #expect(
            result.out
                == #"{"event":"error","message":"unknown class 'Acount'; did you mean 'Account'?","line":9,"column":9,"file":"t.kvo"}"#
                + "\n")
    }
}
