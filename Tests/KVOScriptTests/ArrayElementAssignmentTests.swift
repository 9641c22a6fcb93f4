import KVOCore
import Testing
import _KVOTestSupport

@testable import KVOScript

/// `a[i] = v` and `a += b` on a variable change its array in place
/// (`Compiler.setElement`, `Compiler.appendContents`): a copy per assignment
/// made a loop over an array quadratic. A copy held elsewhere keeps its
/// elements.
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

    @Test func aVariablesArrayGrowsInPlaceByPlusEquals() throws {
        var variable = Value.array([.int(1)])
        var storages = Set<ObjectIdentifier?>()
        for index in 0..<1_000 {
            var read = variable
            #expect(try Compiler.appendContents(of: .array([.int(index)]), to: &variable, read: &read, meter: nil))
            #expect(read == .null)
            guard case .array(let elements) = variable else { break }
            storages.insert(elements.identity)
        }
        // Doubling to 1,024 elements: about ten storages, not 1,000.
        #expect(storages.count < 20)
        #expect(variable == .array([.int(1)] + (0..<1_000).map { .int($0) }))
    }

    @Test func plusEqualsLeavesCopiesAndOtherOperandsAlone() throws {
        var variable = Value.array([.int(1)])
        let copy = variable
        var read = variable
        #expect(try Compiler.appendContents(of: variable, to: &variable, read: &read, meter: nil))
        #expect(variable == .array([.int(1), .int(1)]))
        #expect(copy == .array([.int(1)]))
        // A variable changed since it was read: the general `+` decides.
        var stale = copy
        #expect(try !Compiler.appendContents(of: .array([.int(2)]), to: &variable, read: &stale, meter: nil))
        #expect(stale == copy)
        // Anything but two arrays is `+`'s.
        var number = Value.int(3)
        var readNumber = number
        #expect(try !Compiler.appendContents(of: .int(1), to: &number, read: &readNumber, meter: nil))
        var array = Value.array([.int(1)])
        var readArray = array
        #expect(try !Compiler.appendContents(of: .int(1), to: &array, read: &readArray, meter: nil))
        #expect(array == .array([.int(1)]) && readArray == array)
    }

    @Test func plusEqualsOnAVariableRunsAsSwiftRunsIt() {
        let result = run(
            """
            var xs: [Int] = [1]
            xs += [2, 3]
            xs += xs
            let copy = xs
            xs += [9]
            print(xs, copy)
            func f() -> [Int] {
                xs += [100]
                return [7]
            }
            xs += f()
            print(xs)
            func local() {
                var ys: [String] = []
                var i = 0
                while i < 3 { ys += ["y"]; i = i + 1 }
                print(ys)
            }
            local()
            var bad: [Int] = [1]
            bad += 5
            """)
        // `xs += f()`: the right-hand side first, as Swift evaluates it
        // (swiftc 6 prints `[…, 9, 100, 7]`). kvo-run up to d8b6369 read
        // `xs` first and lost `f`'s own append.
        #expect(
            result.out == "(1, 2, 3, 1, 2, 3, 9) (1, 2, 3, 1, 2, 3)\n(1, 2, 3, 1, 2, 3, 9, 100, 7)\n(y, y, y)\n")
        #expect(result.status == 1)
        #expect(result.err.contains("error: binary operator '+' cannot be applied to Array and Int"))
    }

    /// Swift evaluates a compound assignment's right-hand side before it
    /// reads the target; the outputs are swiftc's for the same program
    /// (without the notifications, which Swift's own classes do not send).
    @Test func aCompoundAssignmentReadsItsTargetAfterItsRightHandSide() {
        let result = run(
            """
            var n = 1
            func g() -> Int {
                n = 50
                return 2
            }
            n += g()
            print(n)
            class O : NSObject {
                @objc dynamic var items: [Int] = [1]
                @objc dynamic var count: Int = 1
            }
            let o = O()
            func h() -> Int {
                o.count = 10
                return 1
            }
            o.count += h()
            print(o.count)
            func k() -> [Int] {
                o.items.append(5)
                return [6]
            }
            o.items += k()
            print(o.items)
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "52\n11\n(1, 5, 6)\n")
    }
}
