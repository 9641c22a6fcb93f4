import _KVOTestSupport
import _KVOTestTraits
import Foundation
import Testing

/// Values nested 100,000 to 10,000,000 deep at run time: printed, compared, encoded and released without recursing
/// past the stack, in linear time.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct DeepValueTests {
    typealias A = Adversarial

    // MARK: Deeply nested values built at run time

    /// `a = [a]` 100,000 times: printing, comparing, interpolating and
    /// deallocating the value must not recurse past the stack.
    @Test(arguments: [
        ("print", "print(a)\nprint(\"done\")\n"),
        ("count and deallocate", "print(a.count)\na = []\nprint(\"done\")\n"),
        ("compare", "var b = []\nfor i in 0..<100000 { b = [b] }\nprint(a == b)\n"),
        ("contains", "print([a].contains(a))\n"),
        ("interpolate", "let s = \"\\(a)\"\nprint(s.count)\n"),
        (
            "store in an observed property",
            """
            class H { var items: [Any] }
            class W { }
            let h = H()
            let w = W()
            h.addObserver(w, forKeyPath: "items", options: [.new, .old])
            h.items = a
            h.items = []
            print("done")

            """
        ),
        ("collection operator", "print(a.value(forKeyPath: \"@count\"))\n"),
    ])
    func hundredThousandDeepArray(_ name: String, _ tail: String) throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<100000 { a = [a] }\n" + tail, .success, timeout: A.largeInputTimeout, name)
        #expect(!result.out.isEmpty)
    }

    @Test func hundredThousandDeepArrayAsJSON() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<100000 { a = [a] }\nprint(a)\n", .success,
            arguments: ["--format", "json"], timeout: A.largeInputTimeout)
        #expect(result.out.hasPrefix("{\"event\":\"print\""))
    }

    /// Ten million levels: building is linear, but releasing the value (here at
    /// the end of the run) recurses once per level in Swift's array
    /// destructor, which overflows even the interpreter's 1 GB stack.
    @Test(.releaseOnly("releasing it recurses per level: a debug kvo-run's frames overflow its stack (signal 11)"))
    func tenMillionDeepArrayIsReleasedWithoutACrash() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<10000000 { a = [a] }\nprint(\"built\")\na = []\nprint(\"freed\")\n",
            .anyStatus, timeout: 120)
        if result.status == 0 { #expect(result.out == "built\nfreed\n") }
    }

    /// Describing a 1,000,000-deep array should take time linear in its
    /// length (2 MB of parentheses), not rebuild every inner string per level.
    @Test func millionDeepArrayPrintsInLinearTime() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<1000000 { a = [a] }\nlet s = \"\\(a)\"\nprint(s.count)\n",
            .success, timeout: A.largeInputTimeout)
        #expect(result.out == "2000002\n", "\(result)")
    }

    /// A change dictionary carrying a 1,000,000-deep array, in JSON: the
    /// encoder appends into one buffer with its own stack (it rebuilt every
    /// inner string per level, which did not finish in two minutes).
    @Test func millionDeepArrayInAJSONChangeDictionaryInLinearTime() throws {
        let source = """
            class Box { var items: [Any] = [] }
            class Watcher { }
            let box = Box()
            let w = Watcher()
            var a = []
            for i in 0..<1000000 { a = [a] }
            box.addObserver(w, forKeyPath: "items", options: [.new])
            box.items = a
            print("done")

            """
        let result = try A.check(source, .success, arguments: ["--format", "json"], timeout: A.largeInputTimeout)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("{\"event\":\"notify\"") == true)
        #expect(lines.first?.utf8.count ?? 0 > 2_000_000)
    }

    /// `a = [a, a]` forty times is a small value whose description has 2^40
    /// leaves. Describing it stops just under 64 MiB with `…` instead of
    /// running for ever and exhausting memory (the JSON encoder: RuntimeTests).
    @Test(.releaseOnly("a debug kvo-run is many times slower: this hostile input outlasts the time the test gives it"))
    func selfDoublingArrayDescriptionIsCut() throws {
        let source = """
            var a = [1]
            for i in 0..<40 { a = [a, a] }
            let s = "\\(a)"
            print(s.count > 67104768)
            print(s.count < 67108864)

            """
        let result = try A.check(source, .success, timeout: A.largeInputTimeout)
        #expect(result.out == "true\ntrue\n", "\(result)")
    }
}
