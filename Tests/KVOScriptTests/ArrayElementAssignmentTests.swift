import KVOCore
import Testing

@testable import KVOScript

/// `a[i] = v` on a variable changes its array in place (`Compiler.setElement`):
/// a copy per assignment made a loop over an array quadratic. A copy held
/// elsewhere keeps its elements.
@Suite struct ArrayElementAssignmentTests {
    @Test func aVariablesArrayChangesInPlace() throws {
        var variable = Value.array([.int(1), .int(2), .int(3)])
        guard case .array(let before) = variable else { return }
        let identity = before.identity
        _ = consume before
        #expect(try Compiler.setElement(of: &variable, at: .int(1), to: .string("two")))
        guard case .array(let after) = variable else {
            Issue.record("not an array: \(variable)")
            return
        }
        #expect(after.identity == identity)
        #expect(variable == .array([.int(1), .string("two"), .int(3)]))
    }

    @Test func aCopyHeldElsewhereKeepsItsElements() throws {
        var variable = Value.array([.int(1), .int(2)])
        let copy = variable
        #expect(try Compiler.setElement(of: &variable, at: .int(0), to: .int(9)))
        #expect(variable == .array([.int(9), .int(2)]))
        #expect(copy == .array([.int(1), .int(2)]))
    }

    @Test func anythingElseIsLeftToThePlacesPath() throws {
        var number = Value.int(3)
        #expect(try !Compiler.setElement(of: &number, at: .int(0), to: .int(1)))
        var array = Value.array([.int(1)])
        #expect(try !Compiler.setElement(of: &array, at: .double(0.5), to: .int(1)))
        #expect(array == .array([.int(1)]))
        #expect(throws: ScriptError.self) { try Compiler.setElement(of: &array, at: .int(4), to: .int(1)) }
        #expect(array == .array([.int(1)]))
    }
}
