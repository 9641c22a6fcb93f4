import Testing
@testable import KVOCore

/// docs/language.md#values: values, their descriptions and equality; ValueType checks.
@Suite struct ValueTests {
    @Test func scalarsDescribeAsNSNumberDoes() {
        #expect(Value.int(42).collectionDescription == "42")
        #expect(Value.double(200).collectionDescription == "200")
        // Quoted inside a collection as NSArray quotes a description that is not digits alone.
        #expect(Value.double(0.05).collectionDescription == "\"0.05\"")
        #expect(Value.double(-2.5).collectionDescription == "\"-2.5\"")
        #expect(Value.double(0.1 + 0.2).collectionDescription == "\"0.3\"")
        #expect(Value.bool(true).collectionDescription == "1")
        #expect(Value.bool(false).collectionDescription == "0")
        #expect(Value.bool(true).printDescription == "true")
    }

    @Test func nilIsNullInCollectionsAndNilWhenPrinted() {
        #expect(Value.null.collectionDescription == "<null>")
        #expect(Value.null.printDescription == "nil")
        #expect(Value.array([.null]).collectionDescription == "(<null>)")
    }

    @Test(
        arguments: [
            ("Savings", "Savings"), ("a_b.c$1", "\"a_b.c$1\""), ("", "\"\""), ("John Appleseed", "\"John Appleseed\""),
            ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""), ("line\nnext", "\"line\\nnext\""),
            ("tab\there", "\"tab\\there\""), ("p/q", "\"p/q\""),
        ] as [(String, String)])
    func stringsAreBareOnlyWhenMadeOfSafeCharacters(text: String, described: String) {
        #expect(Value.string(text).collectionDescription == described)
        #expect(Value.string(text).printDescription == text)
    }

    @Test func arraysAndSetsDescribeOnOneLine() {
        #expect(Value.array([.int(1), .int(2)]).collectionDescription == "(1, 2)")
        #expect(Value.array([]).collectionDescription == "()")
        #expect(Value.array([.string("a b"), .array([.int(1)])]).collectionDescription == "(\"a b\", (1))")
        #expect(stringSet("b", "c", "a").collectionDescription == "{(a, b, c)}")
        #expect(Value.set(ValueSet()).collectionDescription == "{()}")
        #expect(Value.set(ValueSet([.int(10), .int(9)])).collectionDescription == "{(10, 9)}")
    }

    @Test func objectsDescribeWithTheirNames() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        #expect(Value.object(acct).collectionDescription == "<Account: acct>")
        #expect(Value.array([.object(acct)]).collectionDescription == "(<Account: acct>)")
        #expect(Value.context(Context(name: "Ctx")).collectionDescription == "Ctx")
    }

    @Test func equalityComparesObjectsByIdentityAndNumbersByValue() throws {
        let w = World()
        let cls = w.accountClass()
        let a = try w.object(cls, "a"), b = try w.object(cls, "b")
        #expect(Value.object(a) == .object(a))
        #expect(Value.object(a) != .object(b))
        #expect(Value.int(1) == .double(1))
        #expect(Value.bool(true) == .int(1))
        #expect(Value.int(1) != .string("1"))
        #expect(Value.null != .int(0))
        #expect(stringSet("a", "b") == stringSet("b", "a"))
        #expect(Value.array([.int(1), .int(2)]) != .array([.int(2), .int(1)]))
        let one = Context(name: "C"), other = Context(name: "C")
        #expect(Value.context(one) == .context(one))
        #expect(Value.context(one) != .context(other))
    }

    @Test func valueSetKeepsDistinctElements() {
        var set = ValueSet([.int(1), .double(1), .int(2)])
        #expect(set.count == 2)
        let insertedAgain = set.insert(.int(2))
        #expect(!insertedAgain)
        let removed = set.remove(.int(1))
        #expect(removed)
        let removedAgain = set.remove(.int(1))
        #expect(!removedAgain)
        #expect(set.count == 1)
    }

    @Test func scalarsAreScalars() {
        #expect(Value.int(1).isScalar)
        #expect(Value.double(1).isScalar)
        #expect(Value.bool(true).isScalar)
        #expect(!Value.string("1").isScalar)
        #expect(!Value.null.isScalar)
        #expect(Value.null.isNull)
        #expect(!Value.int(0).isNull)
    }

    @Test func typeZeroValuesAndAcceptance() throws {
        #expect(ValueType.int.zeroValue == .int(0))
        #expect(ValueType.string.zeroValue == .string(""))
        #expect(ValueType.object("Account").zeroValue == .null)
        #expect(ValueType.array(.int).zeroValue == .array([]))
        #expect(ValueType.set(.string).zeroValue == .set(ValueSet()))
        #expect(ValueType.double.accept(.int(3)).map { $0.typeName } == "Double")
        #expect(ValueType.int.accept(.double(3)) == nil)
        #expect(ValueType.int.accept(.null) == nil)
        #expect(ValueType.string.accept(.null) == .null)
        #expect(ValueType.array(.double).accept(.array([.int(1)])).map { $0.collectionDescription } == "(1)")
        #expect(ValueType.array(.int).accept(.array([.string("x")])) == nil)
        #expect(ValueType.set(.int).accept(.array([.int(1), .int(1)])) == .set(ValueSet([.int(1)])))
        #expect(ValueType.any.accept(.string("x")) == .string("x"))
        #expect(ValueType.array(.object("Account")).description == "[Account]")
        #expect(ValueType.set(.string).description == "Set<String>")
    }

    @Test func optionNamesAreInTheOrderNewOldInitialPrior() {
        let all: ObservingOptions = [.prior, .initial, .old, .new]
        #expect(all.names == ["new", "old", "initial", "prior"])
        #expect(ObservingOptions().names == [])
    }

    @Test func keyPathComponents() {
        #expect(KeyPaths.components("a.b.c") == ["a", "b", "c"])
        #expect(KeyPaths.components("a") == ["a"])
        #expect(KeyPaths.components("employees.@sum.salary") == ["employees", "@sum", "salary"])
    }
}
