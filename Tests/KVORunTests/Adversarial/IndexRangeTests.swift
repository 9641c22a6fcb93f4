import _KVOTestSupport
import Foundation
import Testing

/// Indexes out of range on arrays, proxies and manual to-many changes.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct IndexRangeTests {
    typealias A = Adversarial

    // MARK: Indexes

    @Test(arguments: [
        "[1, 2, 3][3]", "[1, 2, 3][-1]", "[1, 2, 3][9223372036854775807]", "[1, 2, 3][-9223372036854775807 - 1]",
        "[][0]", "[[1]][0][1]",
    ])
    func outOfRangeArrayIndex(_ expression: String) throws {
        try A.check("print(\(expression))\n", .runtimeError, message: "out of range")
    }

    @Test func outOfRangeArrayAssignment() throws {
        try A.check("var a = [1]\na[1] = 2\n", .runtimeError, message: "out of range")
        try A.check("var a = [1]\na[-1] = 2\n", .runtimeError, message: "out of range")
        try A.check("class T { var xs: [Int] }\nlet t = T()\nt.xs[0] = 1\n", .runtimeError, message: "out of range")
    }

    @Test(arguments: [
        "print(m[3])", "print(m[-1])", "print(m[9223372036854775807])", "print(m[-9223372036854775807 - 1])",
        "m.removeObject(at: 3)", "m.removeObject(at: -1)", "m.insert(\"X\", at: 4)", "m.insert(\"X\", at: -1)",
        "m.replaceObject(at: 3, with: \"X\")", "m.replaceObject(at: -9223372036854775807 - 1, with: \"X\")",
        "m.removeObjects(at: [0, 99])", "m.removeObjects(at: [-1])", "m.insert([\"X\", \"Y\"], at: [9, 10])",
        "m.insert([\"X\"], at: [9223372036854775807])", "m.insert([\"X\", \"Y\"], at: [0])",
        "m.removeAllObjects()\nm.removeLastObject()", "m.removeAllObjects()\nprint(m[0])",
    ])
    func outOfRangeProxyIndex(_ statement: String) throws {
        let result = try A.check(
            """
            class Team { var members: [String] }
            class W { }
            let team = Team(members: ["Ann", "Bob", "Cy"])
            let w = W()
            team.addObserver(w, forKeyPath: "members", options: [.new, .old, .prior])
            let m = team.mutableArrayValue(forKey: "members")
            \(statement)
            print("not reached")

            """, .exception)
        #expect(
            result.out.contains("'NSRangeException'") || result.out.contains("'NSInvalidArgumentException'"),
            "\(result)")
        #expect(!result.out.contains("not reached"))
    }

    /// `willChange(_:valuesAt:forKey:)` takes an NSIndexSet, whose indexes are
    /// unsigned: a negative index cannot be described as `indexes = (-5)`, and
    /// with `.old` Apple reads the old values with `objectsAtIndexes:`, which
    /// raises NSRangeException for an index beyond the array.
    @Test(arguments: [
        "team.willChange(.removal, valuesAt: [-5], forKey: \"members\")\nteam.didChange(.removal, valuesAt: [-5], forKey: \"members\")",
        "team.willChange(.removal, valuesAt: [99], forKey: \"members\")\nteam.didChange(.removal, valuesAt: [99], forKey: \"members\")",
        "team.willChange(.replacement, valuesAt: [9223372036854775807], forKey: \"members\")\nteam.didChange(.replacement, valuesAt: [9223372036854775807], forKey: \"members\")",
    ])
    func manualToManyChangeWithAnOutOfRangeIndex(_ statements: String) throws {
        let result = try A.check(
            """
            class Team { var members: [String] }
            class W { }
            let team = Team(members: ["Ann", "Bob", "Cy"])
            let w = W()
            team.addObserver(w, forKeyPath: "members", options: [.new, .old])
            \(statements)
            print("not reached")

            """, .failure)
        #expect(!result.out.contains("<null>"), "old values invented for indexes the array does not have: \(result)")
    }
}
