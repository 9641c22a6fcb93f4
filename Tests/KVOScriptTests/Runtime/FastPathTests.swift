import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// The compiler's fast paths (unboxed getters, reused builtin call sites, constant literals) give the results and
/// errors of the general path.
@Suite struct FastPathTests: RunExpectations {
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

    @Test func interpolationWritesEachPieceAsPrintShowsIt() {
        // Numbers and strings give their bytes straight into one buffer
        // (InterpolatedText), which moves to the heap past 256 bytes.
        let long = (0..<100).map { "é\($0)," }.joined()
        expectRun(
            #"""
            let s = "héllo wörld, longer than fifteen bytes"
            let a = [1, 2]
            print("<\(0.07)|\(0.1 + 0.2)|\(1.0 / 3.0)|\(-2.5)|\(200.0)|\(0.00001)|\(1.5e-7)|\(0.000123)|\(1e16)|\(-0.0)>")
            print("<\(-9223372036854775807 - 1)|\(0)|\(42)|\(s)|\(true)|\(a)>")
            var long = ""
            var i = 0
            while i < 100 {
                long = "\(long)é\(i),"
                i = i + 1
            }
            print(long)
            print("\("")\(long)\(s)")
            """#, status: 0,
            out: """
                <0.07000000000000001|0.3|0.3333333333333333|-2.5|200|1e-05|1.5e-07|0.000123|1e+16|-0>
                <-9223372036854775808|0|42|héllo wörld, longer than fifteen bytes|true|(1, 2)>
                \(long)
                \(long)héllo wörld, longer than fifteen bytes

                """)
    }

    @Test func interpolationsOfRepeatedDoublesAndAfterAPieceRaised() {
        // An interpolation built again with the same Doubles, after a build
        // whose second piece raised (i = 1: the first piece had already
        // written 2.5), and with an Int piece between Doubles. InterpolatedText
        // once kept the last String and each piece's last digits; an early
        // version of that answered "<1.5, 7.5>" at i = 2. Kept as a pin of
        // the output now that it keeps neither.
        expectRun(
            #"""
            class Box { var v: Double = 7.5 }
            let box = Box()
            let a = [1.5, 2.5, 2.5, 2.5, 0.1 + 0.2]
            let keys = ["v", "nope", "v", "v", "v"]
            var i = 0
            while i < 5 {
                do {
                    try print("<\(a[i]), \(box.value(forKey: keys[i]))>")
                } catch {
                    print("caught \(error.name)")
                }
                i = i + 1
            }
            var j = 0
            while j < 3 {
                print("[\(a[j % 2])|\(j)|\(a[1])]")
                j = j + 1
            }
            """#, status: 0,
            out: """
                <1.5, 7.5>
                *** NSUnknownKeyException (caught): [<Box box> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope.
                caught NSUnknownKeyException
                <2.5, 7.5>
                <2.5, 7.5>
                <0.3, 7.5>
                [1.5|0|2.5]
                [2.5|1|2.5]
                [1.5|2|2.5]

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
}
