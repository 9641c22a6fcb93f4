import _KVOTestSupport
import Foundation
import Testing

/// Recursion at run time, through methods, handlers and deep bodies: it ends with the --max-depth error, never a
/// stack overflow.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct RecursionLimitTests {
    typealias A = Adversarial

    // MARK: Recursion at run time (checked by --max-depth)

    static let recursions: [(String, String)] = [
        (
            "notification recursion",
            """
            class Counter {
                var value: Int = 0
                func observeValue(keyPath, object, change, context) {
                    value = value + 1
                }
            }
            let c = Counter()
            c.addObserver(c, forKeyPath: "value", options: [.new, .old, .prior])
            c.value = 1
            print("not reached")

            """
        ),
        (
            "method recursion",
            """
            class A {
                func f(n) { return f(n + 1) }
            }
            let a = A()
            print(a.f(0))

            """
        ),
        ("function recursion", "func f(n) { return f(n + 1) + 1 }\nprint(f(0))\n"),
        (
            "mutual recursion between two objects' handlers",
            """
            class Node {
                var value: Int = 0
                var other: Node?
                func observeValue(keyPath, object, change, context) {
                    other.value = other.value + 1
                }
            }
            let a = Node()
            let b = Node()
            a.other = b
            b.other = a
            a.addObserver(b, forKeyPath: "value", options: [.new])
            b.addObserver(a, forKeyPath: "value", options: [.new])
            a.value = 1
            print("not reached")

            """
        ),
        (
            "mutual recursion between two methods",
            """
            class A { var b: B?
                func ping(n) { return b.pong(n + 1) } }
            class B { var a: A?
                func pong(n) { return a.ping(n + 1) } }
            let a = A()
            let b = B()
            a.b = b
            b.a = a
            print(a.ping(0))

            """
        ),
        ("computed property reading itself", "class A { var z: Int { z + 1 } }\nlet a = A()\nprint(a.z)\n"),
        // Found by the fuzzer: it overflowed the stack (SIGSEGV) before the
        // initial values of a new object counted as a level.
        (
            "initial value creating its own class",
            "class Account {\n    var next = Account()\n}\nlet a = Account()\nprint(\"not reached\")\n"
        ),
        ("computed property through KVC", "class A { var z: Int { value(forKey: \"z\") } }\nlet a = A()\nprint(a.z)\n"),
        (
            "valueForUndefinedKey recursion",
            """
            class A { func valueForUndefinedKey(key) { return value(forKey: key) } }
            let a = A()
            print(a.value(forKey: "nope"))

            """
        ),
        (
            "setValueForUndefinedKey recursion",
            """
            class A { func setValueForUndefinedKey(value, key) { setValue(value, forKey: key) } }
            let a = A()
            a.setValue(1, forKey: "nope")

            """
        ),
        (
            "setNilValueForKey recursion",
            """
            class A { var x: Int = 0
                func setNilValueForKey(key) { setValue(nil, forKey: key) } }
            let a = A()
            a.setValue(nil, forKey: "x")

            """
        ),
        (
            "custom setter recursion",
            """
            class A {
                var x: Int = 0 { set { x = newValue + 1 } }
            }
            let a = A()
            a.x = 1

            """
        ),
        (
            "handler recursion through a key path with a cycle",
            """
            class Node {
                var x: Int = 0
                var next: Node?
                func observeValue(keyPath, object, change, context) {
                    setValue(x + 1, forKeyPath: "next.x")
                }
            }
            let n = Node()
            n.next = n
            n.addObserver(n, forKeyPath: "next.x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
        (
            "handler recursion through a dependent key",
            """
            class Node {
                var x: Int = 0
                @affectedBy(x)
                var y: Int { x + 1 }
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "y" { x = x + 1 }
                }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "y", options: [.new, .old, .prior])
            n.addObserver(n, forKeyPath: "x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
        (
            "handler calling a method whose computed property notifies",
            """
            class Node {
                var x: Int = 0
                var y: Int { bump() }
                func bump() {
                    x = x + 1
                    return x
                }
                func observeValue(keyPath, object, change, context) { print(y) }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
    ]

    @Test(arguments: recursions)
    func recursionStopsAtTheDefaultDepth(_ name: String, _ source: String) throws {
        try A.check(source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet"], name)
    }

    /// --max-depth accepts up to 100000: the deepest allowed recursion must
    /// still end with the depth error, not overflow the interpreter's stack.
    @Test(arguments: recursions)
    func recursionStopsAtTheLargestAllowedDepth(_ name: String, _ source: String) throws {
        try A.check(
            source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet", "--max-depth", "100000"],
            timeout: A.largeInputTimeout, name)
    }

    /// Each level of the recursion evaluates a 250-deep expression or block (the
    /// parser allows 256): stack use per level is far larger than for a plain
    /// call, and the depth limit must still be reached before the stack runs out.
    @Test(arguments: [
        (
            "method whose return nests 250 unary minuses",
            "func f(n) { return " + String(repeating: "-", count: 250) + "f(n + 1) }\nprint(f(0))\n"
        ),
        (
            "method whose call sits in 120 nested ifs",
            "func f(n) {\n" + String(repeating: "if true {\n", count: 120) + "return f(n + 1)\n"
                + String(repeating: "}\n", count: 120) + "}\nprint(f(0))\n"
        ),
        (
            "handler whose set sits in 120 nested ifs",
            """
            class Node {
                var x: Int = 0
                func observeValue(keyPath, object, change, context) {
            \(String(repeating: "if true {\n", count: 120))x = x + 1
            \(String(repeating: "}\n", count: 120))    }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "x")
            n.x = 1

            """
        ),
    ])
    func recursionThroughDeepBodies(_ name: String, _ source: String) throws {
        try A.check(source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet"], name)
        try A.check(
            source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet", "--max-depth", "100000"],
            timeout: A.largeInputTimeout, name + ", --max-depth 100000")
    }
}
