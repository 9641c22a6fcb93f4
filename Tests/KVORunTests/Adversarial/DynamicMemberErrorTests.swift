import _KVOTestSupport
import Foundation
import Testing

/// Unknown members and type errors found at run time on dynamic values.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct DynamicMemberErrorTests {
    typealias A = Adversarial

    // MARK: Unknown members on dynamic values

    @Test(arguments: [
        "print(x.foo)", "print(x.count.foo)", "print(d[0].foo())", "print(d.append(1, 2))", "print(\"s\".foo)",
        "do { [1].foo } catch { print(error.foo) }", "print(a.x.y.z)", "a.x.y = 2", "print(a.observationInfo.foo)",
        "print(a.mutableArrayValue(forKey: \"arr\").foo)", "print(a.value(forKey: \"x\").foo)",
        "print(a.value(forKey: \"x\")[0])", "a.value(forKey: \"arr\").append(1)", "print(a.value(forKey: \"arr\")[9])",
        "for q in a { }", "for q in \"abc\" { }", "if 1 { }", "while \"s\" { }", "print(-\"s\")", "print([1] + 1)",
        "print(a < a)", "print(\"a\" * 3)", "a.x = \"s\"", "a.x = nil", "a.setValue(1e300, forKey: \"x\")",
        "a.setValue(0.0 / 0.0, forKey: \"x\")",
    ])
    func unknownMembersAndTypeErrorsAtRunTime(_ statement: String) throws {
        let result = try A.check(
            """
            class A { var x: Int = 0
                var arr: [Int] }
            let a = A()
            let x = [1]
            var d = x
            \(statement)
            print("not reached")

            """, .runtimeError)
        #expect(!result.out.contains("not reached"))
        #expect(result.err.hasPrefix("adv.kvo:6:"), "\(result)")
    }
}
