import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// --max-steps and --max-depth: functions, methods, getters and notifications stop at the limit with an error that
/// names it.
@Suite struct RunLimitTests: RunExpectations {
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

    /// A property whose initial value creates its own class recurses: with
    /// or without an `init`, the depth limit stops it (with an `init`, it
    /// used to recurse until the process crashed).
    @Test func maxDepthForInitialValuesThatCreateTheirOwnClass() {
        for (declaration, call) in [("", "Node()"), ("    init(v: Int) { self.v = v }\n", "Node(v: 1)")] {
            expectRun(
                "class Node: NSObject {\n    var v = 0\n    var next = \(call)\n\(declaration)}\nlet n = \(call)\n",
                options: options(maxDepth: 20), status: 1, out: "",
                err: """
                    t.kvo:\(declaration.isEmpty ? 5 : 6):1: error: initial values nested deeper than the maximum depth (20) creating 'Node'; does a property's initial value create its own class? (--max-depth raises the limit)
                    let n = \(call)
                    ^

                    """)
        }
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
}
