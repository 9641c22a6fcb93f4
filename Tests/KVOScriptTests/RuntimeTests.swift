import _KVOTestSupport
import KVORun
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Exceptions (docs/language.md#exceptions), output (docs/language.md#output), runtime errors and exit
/// statuses (docs/language.md#diagnostics).
@Suite struct RuntimeTests {
    func options(maxSteps: Int = .max, maxDepth: Int = 1000, keepGoing: Bool = false) -> RunOptions {
        var options = RunOptions()
        options.maxSteps = maxSteps
        options.maxDepth = maxDepth
        options.keepGoing = keepGoing
        return options
    }

    /// Runs `source` and expects exactly this status, standard output and standard error.
    func expectRun(
        _ source: String, options: RunOptions = RunOptions(), format: OutputFormatKind = .text,
        status: Int32, out: String, err: String = "",
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = run(source, options: options, format: format)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == out, sourceLocation: sourceLocation)
        #expect(result.err == err, sourceLocation: sourceLocation)
    }

    // MARK: Success

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

    // MARK: Runtime errors: status 1, the error names the line

    @Test func divisionByZero() {
        expectRun(
            "print(\"before\")\nlet a = 10\nlet b = 0\nprint(a / b)\nprint(\"after\")\n", status: 1, out: "before\n",
            err: """
                t.kvo:4:9: error: division by zero
                print(a / b)
                        ^

                """)
    }

    @Test func remainderByZero() {
        expectRun(
            "print(7 % 0)\n", status: 1, out: "",
            err: """
                t.kvo:1:9: error: division by zero in remainder
                print(7 % 0)
                        ^

                """)
    }

    @Test func divisionByZeroInsideAFunctionNamesTheLineInTheFunction() {
        expectRun(
            "func share(total, people) {\n    return total / people\n}\nprint(share(10, 4))\nprint(share(10, 0))\n",
            status: 1, out: "2\n",
            err: """
                t.kvo:2:18: error: division by zero
                    return total / people
                                 ^

                """)
    }

    @Test func intOverflow() {
        expectRun(
            "print(9223372036854775807 + 1)\n", status: 1, out: "",
            err: """
                t.kvo:1:27: error: arithmetic overflow: 9223372036854775807 + 1 does not fit in Int
                print(9223372036854775807 + 1)
                                          ^

                """)
    }

    @Test func eachObservedKeyOfAChangeGetsItsOwnOldValue() {
        // Setting celsius notifies the observers of celsius and of fahrenheit,
        // which it affects; each change dictionary carries its own key's old
        // value. (The old value of the first key was once shared with every
        // observance of the change: celsius reported old = 68.)
        expectRun(
            """
            class Temperature {
                var celsius: Double = 20
                @affectedBy(celsius)
                var fahrenheit: Double { celsius * 9 / 5 + 32 }
            }
            class Log {
                func observeValue(keyPath, object, change, context) { }
            }
            let t = Temperature()
            let log = Log()
            t.addObserver(log, forKeyPath: "celsius", options: [.new, .old])
            t.addObserver(log, forKeyPath: "fahrenheit", options: [.new, .old])
            t.addObserver(log, forKeyPath: "celsius", options: [.old])
            t.celsius = 100
            """, status: 0,
            out: """
                t.celsius → log {kind = 1; old = 20}
                t.fahrenheit → log {kind = 1; new = 212; old = 68}
                t.celsius → log {kind = 1; new = 100; old = 20}

                """)
    }

    @Test func unboxedDoubleGettersMatchTheBoxedOperators() {
        // Getters of Double arithmetic run unboxed (CompileDouble.swift); Int
        // arithmetic inside them (`steps / 2`) stays Int, and Int literals are
        // promoted only beside a Double, as the boxed operators do.
        expectRun(
            """
            class LabColor {
                var lComponent: Double = 50
                var aComponent: Double = 10
                var bComponent: Double = -10
                var steps: Int = 3
                @affectedBy(lComponent)
                var redComponent: Double { (lComponent + 16) / 116 }
                @affectedBy(lComponent, aComponent)
                var greenComponent: Double { (lComponent + 16) / 116 + aComponent / 500 }
                @affectedBy(lComponent, bComponent)
                var blueComponent: Double { -(lComponent + 16) / 116 - bComponent / 200 }
                @affectedBy(redComponent, greenComponent, blueComponent)
                var color: Double { redComponent * 100 + greenComponent * 100 + self.blueComponent * 100 }
                var stepped: Double { steps / 2 * lComponent }
                var half: Double { 1 / 2 * lComponent + 1.0 / 2 }
                var infinite: Double { lComponent / 0 }
            }
            class Watcher {
                func observeValue(keyPath, object, change, context) { }
            }
            let c = LabColor()
            let w = Watcher()
            c.addObserver(w, forKeyPath: "color", options: [.new, .old])
            c.lComponent = 100
            c.setValue(-16, forKey: "lComponent")
            print(c.redComponent, c.greenComponent, c.blueComponent, c.stepped, c.half, c.infinite)
            """, status: 0,
            out: """
                c.color → w {kind = 1; new = 107; old = "63.89655172413794"}
                c.color → w {kind = 1; new = 7; old = 107}
                0 0.02 0.05 -16 0.5 -inf

                """)
    }

    @Test func unnamedObjectsAreNumberedInCreationOrderWhenShownLater() {
        // `Class#n` is spelled out when first shown, from the number the
        // object got when it was created.
        expectRun(
            """
            class Watcher { }
            var ws = [Watcher(), Watcher(), Watcher()]
            print(ws[2])
            print(ws[0])
            let named = Watcher()
            print(named, ws[1])
            """, status: 0, out: "<Watcher: Watcher#3>\n<Watcher: Watcher#1>\n<Watcher: named> <Watcher: Watcher#2>\n")
    }

    @Test func builtinCallsReenteringTheirSiteAndConstantArrayLiterals() {
        // A builtin call site reuses its argument array; `.initial` runs a
        // handler that calls the same site again, which must get its own.
        // `[1, 2]` of literals is built once, and a copy changed is a copy.
        expectRun(
            """
            class Account { var balance: Int = 0 }
            class W {
                var depth: Int = 0
                func observeValue(keyPath, object, change, context) {
                    print("depth", depth, change)
                    if depth < 2 {
                        depth = depth + 1
                        register(object, self)
                    }
                }
            }
            func register(target, observer) {
                target.addObserver(observer, forKeyPath: "balance", options: [.initial, .new])
            }
            let a = Account()
            let w = W()
            register(a, w)
            print(a.observationInfo)
            func opts() { return [1, 2] }
            var x = opts()
            x.append(3)
            print(x, opts())
            """, status: 0,
            out: """
                a.balance → w {kind = 1; new = 0}
                  depth 0 {kind = 1; new = 0}
                  a.balance → w {kind = 1; new = 0}
                    depth 1 {kind = 1; new = 0}
                    a.balance → w {kind = 1; new = 0}
                      depth 2 {kind = 1; new = 0}
                <NSKeyValueObservationInfo a> (
                <NSKeyValueObservance a[0]: Observer: w, Key path: balance, Options: <New: YES, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                <NSKeyValueObservance a[0]: Observer: w, Key path: balance, Options: <New: YES, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                <NSKeyValueObservance a[0]: Observer: w, Key path: balance, Options: <New: YES, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                )
                (1, 2, 3) (1, 2)

                """)
    }

    @Test func unboxedGetterChainsKeepTheDepthLimit() {
        // An unboxed getter inlines the getters it reads and checks the depth
        // limit once for all of them: a chain five getters deep (d4 … d0)
        // fits --max-depth 6 from top level and from inside a method, and
        // fails at 5 in the getter the boxed path would name, at the read
        // that went too deep.
        let source = """
            class Chain {
                var x: Double = 1
                var d0: Double { x }
                var d1: Double { d0 + 1 }
                var d2: Double { d1 * 2 }
                var d3: Double { d2 - 1 }
                var d4: Double { -d3 / 2 }
                var big: Bool { d4 < 0 }
                func read() { return d4 }
            }
            let c = Chain()
            print(c.d4)
            print(c.big)
            print(c.read())
            """
        expectRun(source, options: options(maxDepth: 6), status: 0, out: "-1.5\ntrue\n-1.5\n")
        expectRun(
            source, options: options(maxDepth: 5), status: 1, out: "-1.5\n",
            err: """
                t.kvo:13:6: error: accessor calls nested deeper than the maximum depth (5) in 'd0'; raise it with --max-depth
                print(c.big)
                     ^

                """)
        expectRun(
            source, options: options(maxDepth: 4), status: 1, out: "",
            err: """
                t.kvo:12:6: error: accessor calls nested deeper than the maximum depth (4) in 'd0'; raise it with --max-depth
                print(c.d4)
                     ^

                """)
    }

    @Test func unboxedGetterOfAReleasedObject() {
        expectRun(
            """
            class Chain {
                var x: Double = 1
                var d0: Double { x }
                var d1: Double { d0 + 1 }
            }
            let c = Chain()
            print(c.d1)
            release(c)
            print(c.d1)
            """, status: 1, out: "2\n",
            err: """
                t.kvo:9:6: error: use of released object <Chain: c>
                print(c.d1)
                     ^

                """)
    }

    @Test func operatorsOnSelfPropertiesInAccessors() {
        // `count + 1`, `count / 0` in a getter read the slot in place (no
        // closure of its own): results, promotion and errors are unchanged.
        expectRun(
            """
            class C {
                var count: Int = 7
                var ratio: Double = 2.5
                var next: Int { count + 1 }
                var half: Int { count / 2 }
                var scaled: Double { ratio * 2 }
                var mixed: Double { count / 2.0 }
                var broken: Int { count / 0 }
            }
            let c = C()
            print(c.next, c.half, c.scaled, c.mixed)
            c.count = 9223372036854775807
            print(c.next)
            """, status: 1, out: "8 3 5 3.5\n",
            err: """
                t.kvo:4:27: error: arithmetic overflow: 9223372036854775807 + 1 does not fit in Int
                    var next: Int { count + 1 }
                                          ^

                """)
        expectRun(
            """
            class C {
                var count: Int = 7
                var broken: Int { count / 0 }
            }
            print(C().broken)
            """, status: 1, out: "",
            err: """
                t.kvo:3:29: error: division by zero
                    var broken: Int { count / 0 }
                                            ^

                """)
    }

    @Test func intOverflowInMultiplicationAndDivision() {
        expectRun(
            "var n = 1\nfor i in 1...20 {\n    n = n * 10\n}\n", status: 1, out: "",
            err: """
                t.kvo:3:11: error: arithmetic overflow: 1000000000000000000 * 10 does not fit in Int
                    n = n * 10
                          ^

                """)
        expectRun(
            "let m = -9223372036854775807 - 1\nprint(m / -1)\n", status: 1, out: "",
            err: """
                t.kvo:2:9: error: arithmetic overflow: -9223372036854775808 / -1 does not fit in Int
                print(m / -1)
                        ^

                """)
    }

    @Test func doubleArithmeticDoesNotOverflow() {
        expectRun("print(1e308 * 10.0)\nprint(1.0 / 0.0 > 1)\n", status: 0, out: "inf\ntrue\n")
    }

    @Test func indexOutOfRange() {
        expectRun(
            "let xs = [1, 2]\nprint(xs[1])\nprint(xs[2])\n", status: 1, out: "2\n",
            err: """
                t.kvo:3:6: error: index 2 out of range for an array of 2 elements
                print(xs[2])
                     ^

                """)
    }

    @Test func indexOutOfRangeInAnAssignment() {
        expectRun(
            "var ys = [1]\nys[3] = 0\n", status: 1, out: "",
            err: """
                t.kvo:2:7: error: index 3 out of range for an array of 1 element
                ys[3] = 0
                      ^

                """)
    }

    @Test func failedAssert() {
        expectRun(
            "assert(1 == 1, \"fine\")\nassert(1 == 2, \"nope\")\n", status: 1, out: "",
            err: """
                t.kvo:2:7: error: assertion failed: nope
                assert(1 == 2, "nope")
                      ^

                """)
        expectRun(
            "assert(false)\n", status: 1, out: "",
            err: """
                t.kvo:1:7: error: assertion failed
                assert(false)
                      ^

                """)
    }

    @Test func typeMismatchThroughASetter() {
        expectRun(
            """
            class A { var n: Int = 0 }
            let a = A()
            a.n = 3
            print(a.n)
            a.n = "x"
            print("not reached")
            """, status: 1, out: "3\n",
            err: """
                t.kvo:5:5: error: cannot store String x in property 'n' of A, declared Int
                a.n = "x"
                    ^

                """)
    }

    @Test func aDoubleIsNotAnInt() {
        expectRun(
            "class A { var n: Int = 0 }\nlet a = A()\na.n = 2.5\n", status: 1, out: "",
            err: """
                t.kvo:3:5: error: cannot store Double 2.5 in property 'n' of A, declared Int
                a.n = 2.5
                    ^

                """)
    }

    @Test func kvcCoercesWhereTheSetterRefuses() {
        // docs/language.md#properties: through setValue(_:forKey:) a String gives the number it starts with.
        expectRun(
            """
            class A { var n: Int = 0
                      var d: Double = 0 }
            let a = A()
            a.setValue("12abc", forKey: "n")
            a.setValue(3, forKey: "d")
            a.d = 4
            print(a.n, a.d)
            """, status: 0, out: "12 4\n")
    }

    @Test func maxSteps() {
        expectRun(
            "var i = 0\nwhile true { i = i + 1 }\n", options: options(maxSteps: 100), status: 1, out: "",
            err: """
                t.kvo:2:1: error: more than 100 statements executed; raise the limit with --max-steps
                while true { i = i + 1 }
                ^

                """)
    }

    @Test func maxStepsCountsLoopIterationsAndStatements() {
        expectRun(
            "for i in 0..<1000 { print(i) }\n", options: options(maxSteps: 10), status: 1, out: "0\n1\n2\n3\n",
            err: """
                t.kvo:1:1: error: more than 10 statements executed; raise the limit with --max-steps
                for i in 0..<1000 { print(i) }
                ^

                """)
    }

    @Test func maxDepthForFunctionRecursion() {
        expectRun(
            "func f(n) { return f(n + 1) }\nf(0)\n", options: options(maxDepth: 50), status: 1, out: "",
            err: """
                t.kvo:1:13: error: method calls nested deeper than the maximum depth (50); raise it with --max-depth
                func f(n) { return f(n + 1) }
                            ^

                """)
    }

    @Test func maxDepthForMethodRecursion() {
        expectRun(
            """
            class C {
                func down(n) {
                    return down(n + 1)
                }
            }
            let c = C()
            c.down(0)
            """, options: options(maxDepth: 20), status: 1, out: "",
            err: """
                t.kvo:3:9: error: method calls nested deeper than the maximum depth (20); raise it with --max-depth
                        return down(n + 1)
                        ^

                """)
    }

    @Test func maxDepthForComputedPropertyRecursion() {
        // A getter without locals runs without a frame of its own
        // (`invokeGetter`); it still counts as a level of --max-depth.
        expectRun(
            """
            class Loop {
                var a: Int { a + 1 }
            }
            let l = Loop()
            print(l.a)
            """, options: options(maxDepth: 30), status: 1, out: "",
            err: """
                t.kvo:5:6: error: accessor calls nested deeper than the maximum depth (30) in 'a'; raise it with --max-depth
                print(l.a)
                     ^

                """)
    }

    @Test func gettersRestoreTheCallersSelf() {
        // Each getter swaps `self` in and back out: after reading another
        // object's computed property, a method sees its own properties again.
        expectRun(
            """
            class Point {
                var x: Int = 1
                var doubled: Int { x * 2 }
            }
            class Shape {
                var origin = Point()
                var x: Int = 100
                var total: Int { origin.doubled + x }
                func describe() {
                    let before = x
                    let d = origin.doubled
                    print(before, d, x, total, x)
                }
            }
            let s = Shape()
            s.origin.x = 5
            s.describe()
            let p = Point()
            release(p)
            print(p.doubled)
            """, status: 1, out: "100 10 100 110 100\n",
            err: """
                t.kvo:20:6: error: use of released object <Point: p>
                print(p.doubled)
                     ^

                """)
    }

    @Test func theDefaultMaxDepthStopsUnboundedRecursion() {
        let result = run("func f(n) { return f(n + 1) }\nf(0)\n")
        #expect(result.status == 1)
        #expect(
            result.err.hasPrefix(
                "t.kvo:1:13: error: method calls nested deeper than the maximum depth (1000); raise it with --max-depth\n"
            ))
    }

    @Test func maxDepthForNotificationRecursion() {
        expectRun(
            """
            class C {
                var n: Int = 0
                func observeValue(keyPath, object, change, context) {
                    n = n + 1
                }
            }
            let c = C()
            c.addObserver(c, forKeyPath: "n", options: [.new])
            c.n = 1
            print("not reached")
            """, options: options(maxDepth: 3), status: 1,
            out: """
                c.n → c {kind = 1; new = 1}
                  c.n → c {kind = 1; new = 2}
                    c.n → c {kind = 1; new = 3}
                      c.n → c {kind = 1; new = 4}

                """,
            err: """
                t.kvo:4:11: error: notifications nested deeper than the maximum depth (3); a notification loop: c.n repeats, each handler changing what the next observes; raise it with --max-depth
                        n = n + 1
                          ^
                t.kvo:9:1: note: the loop started with this statement
                c.n = 1
                ^

                """)
    }

    @Test func notificationToAReleasedObserver() {
        // docs/language.md#lifetime.
        expectRun(
            """
            class A { var n: Int = 0 }
            class P { }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "n")
            release(p)
            a.n = 1
            print("not reached")
            """, status: 1, out: "",
            err: """
                t.kvo:7:5: error: *** -[P observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance <P: p>
                a.n = 1
                    ^

                """)
    }

    @Test func useOfAReleasedObject() {
        let result = run("class A { var n: Int = 0 }\nlet a = A()\nrelease(a)\nprint(a.n)\n")
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("t.kvo:4:"))
        #expect(result.err.contains("error: use of released object <A: a>\n"))
    }

    // MARK: Exceptions

    static let observed = """
        class Account { var balance: Double = 0 }
        class Person { }
        let acct = Account()
        let alice = Person()

        """

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

    // MARK: --keep-going

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

    // MARK: JSON Lines

    @Test func jsonEventsAreExact() {
        expectRun(
            """
            context Ctx
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old, .prior], context: Ctx)
            acct.balance = 2.5
            print(acct.observationInfo)
            print("a\\tb \\"q\\"", 1, nil)
            do {
                acct.removeObserver(alice, forKeyPath: "nope")
            } catch NSRangeException {
                print(error.name)
            }
            let xs = [1]
            print(xs[1])
            acct.removeObserver(alice, forKeyPath: "balance", context: Ctx)
            print(acct.observationInfo)
            acct.removeObserver(alice, forKeyPath: "balance")
            print("reached with keepGoing")
            """, options: options(keepGoing: true), format: .json, status: 1,
            out: #"""
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1,"notificationIsPrior":true,"old":0},"context":"Ctx","depth":0}
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1,"new":2.5,"old":0},"context":"Ctx","depth":0}
                {"event":"observationInfo","object":"acct","observances":[{"observer":"alice","keyPath":"balance","options":["new","old","prior"],"context":"Ctx"}]}
                {"event":"print","text":"a\tb \"q\" 1 nil","depth":0}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"nope\" from <Account acct> because it is not registered as an observer.","caught":true,"depth":0,"line":11,"column":24}
                {"event":"print","text":"NSRangeException","depth":0}
                {"event":"error","message":"index 1 out of range for an array of 1 element","line":16,"column":6}
                {"event":"observationInfo","object":"acct","observances":[]}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer.","caught":false,"depth":0,"line":19,"column":20}
                {"event":"print","text":"reached with keepGoing","depth":0}

                """#)
    }

    @Test func jsonUncaughtExceptionIsTheLastLine() {
        expectRun(
            Self.observed + """
                acct.addObserver(alice, forKeyPath: "balance")
                acct.balance = 1
                acct.removeObserver(alice, forKeyPath: "balance")
                acct.removeObserver(alice, forKeyPath: "balance")
                print("not reached")
                """, options: options(), format: .json, status: 1,
            out: #"""
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1},"context":null,"depth":0}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer.","caught":false,"depth":0,"line":8,"column":20}

                """#)
    }

    @Test func jsonRuntimeErrorIsAnEventOnStandardOutput() {
        expectRun(
            "print(1)\nlet z = 0\nprint(1 / z)\n", options: options(), format: .json, status: 1,
            out: """
                {"event":"print","text":"1","depth":0}
                {"event":"error","message":"division by zero","line":3,"column":9}

                """)
    }

    @Test func jsonValuesAndNestedDepth() {
        expectRun(
            """
            class Item { var name: String = "" }
            class Box {
                var items: [Item]
                var count: Int = 0
                var owner: Item?
                func observeValue(keyPath, object, change, context) {
                    print("handled", keyPath)
                }
            }
            let box = Box()
            let pen = Item(name: "pen")
            box.addObserver(box, forKeyPath: "items", options: [.new, .old])
            box.addObserver(box, forKeyPath: "owner", options: [.new, .old])
            box.mutableArrayValue(forKey: "items").add(pen)
            box.owner = pen
            """, options: options(), format: .json, status: 0,
            out: #"""
                {"event":"notify","object":"box","keyPath":"items","observer":"box","change":{"indexes":[0],"kind":2,"new":[{"object":"pen","class":"Item"}]},"context":null,"depth":0}
                {"event":"print","text":"handled items","depth":1}
                {"event":"notify","object":"box","keyPath":"owner","observer":"box","change":{"kind":1,"new":{"object":"pen","class":"Item"},"old":null},"context":null,"depth":0}
                {"event":"print","text":"handled owner","depth":1}

                """#)
    }

    // MARK: Text format details

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
