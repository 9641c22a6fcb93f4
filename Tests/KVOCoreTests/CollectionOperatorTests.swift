import Testing
@testable import KVOCore

/// Collection operators in value(forKeyPath:) (docs/language.md#collection-operators).
@Suite struct CollectionOperatorTests {
    struct Company {
        let dept: KVOObject
        let ann: KVOObject, bob: KVOObject, cy: KVOObject
        let sales: KVOObject, hr: KVOObject
    }

    /// conformance c10's department, with each employee in a team.
    func company(_ w: World) throws -> Company {
        let team = w.makeClass("Team", [w.stored("title", .string)])
        let employee = w.makeClass(
            "Employee",
            [
                w.stored("name", .string), w.stored("salary", .double), w.stored("team", .object("Team")),
                w.stored("skills", .array(.string)),
            ])
        let department = w.makeClass("Department", [w.stored("employees", .array(.object("Employee")))])
        let sales = try w.object(team, "sales", [("title", .string("Sales"))])
        let hr = try w.object(team, "hr", [("title", .string("HR"))])
        let ann = try w.object(
            employee, "ann",
            [
                ("name", .string("Ann")), ("salary", .double(100)),
                ("team", .object(sales)), ("skills", strings("a", "b")),
            ])
        let bob = try w.object(
            employee, "bob",
            [
                ("name", .string("Bob")), ("salary", .double(200)),
                ("team", .object(hr)), ("skills", strings("b", "c")),
            ])
        let cy = try w.object(
            employee, "cy",
            [
                ("name", .string("Cy")), ("salary", .double(300)),
                ("team", .object(sales)), ("skills", strings("c")),
            ])
        let dept = try w.object(department, "dept", [("employees", .array([.object(ann), .object(bob), .object(cy)]))])
        return Company(dept: dept, ann: ann, bob: bob, cy: cy, sales: sales, hr: hr)
    }

    /// conformance c10.
    @Test func countSumAvgMaxMinAsInTheConformanceExample() throws {
        let w = World()
        let c = try company(w)
        #expect(try w.value(c.dept, forKeyPath: "employees.@count") == .int(3))
        #expect(try w.value(c.dept, forKeyPath: "employees.@sum.salary").printDescription == "600")
        #expect(try w.value(c.dept, forKeyPath: "employees.@avg.salary").printDescription == "200")
        #expect(try w.value(c.dept, forKeyPath: "employees.@max.salary").printDescription == "300")
        #expect(try w.value(c.dept, forKeyPath: "employees.@min.salary").printDescription == "100")
        #expect(try w.value(c.dept, forKeyPath: "employees.name").printDescription == "(Ann, Bob, Cy)")
        let numbers = Value.array([.int(4), .int(84), .int(2)])
        #expect(try w.rt.value(of: numbers, forKeyPath: "@max.self") == .int(84))
        #expect(try w.rt.value(of: numbers, forKeyPath: "@min.self") == .int(2))
    }

    /// SPEC §5: `@sum` and `@avg` give an NSDecimalNumber (up to 38
    /// significant digits).
    @Test func sumAndAvgAreDecimalNumbers() throws {
        let w = World()
        let numbers = Value.array([.int(1), .int(2)])
        let sum = try w.rt.value(of: numbers, forKeyPath: "@sum.self")
        #expect(sum == .int(3))
        #expect(sum.typeName == "NSDecimalNumber")
        #expect(try w.rt.value(of: numbers, forKeyPath: "@avg.self") == .double(1.5))
        #expect(try w.rt.value(of: numbers, forKeyPath: "@avg.self").typeName == "NSDecimalNumber")
    }

    @Test func operatorsOnAnEmptyCollection() throws {
        let w = World()
        let empty = Value.array([])
        #expect(try w.rt.value(of: empty, forKeyPath: "@count") == .int(0))
        #expect(try w.rt.value(of: empty, forKeyPath: "@sum.self") == .int(0))
        #expect(try w.rt.value(of: empty, forKeyPath: "@max.self") == .null)
        #expect(try w.rt.value(of: empty, forKeyPath: "@min.self") == .null)
    }

    @Test func maxAndMinSkipNilAndCompareStrings() throws {
        let w = World()
        let values = Value.array([.string("pear"), .null, .string("apple"), .string("zoo")])
        #expect(try w.rt.value(of: values, forKeyPath: "@max.self") == .string("zoo"))
        #expect(try w.rt.value(of: values, forKeyPath: "@min.self") == .string("apple"))
    }

    @Test func unionOfObjectsKeepsDuplicatesAndDistinctRemovesThem() throws {
        let w = World()
        let c = try company(w)
        let union = try w.value(c.dept, forKeyPath: "employees.@unionOfObjects.team")
        #expect(union == .array([.object(c.sales), .object(c.hr), .object(c.sales)]))
        guard case .array(let distinct) = try w.value(c.dept, forKeyPath: "employees.@distinctUnionOfObjects.team")
        else {
            Issue.record("expected an array")
            return
        }
        #expect(distinct.count == 2)
        #expect(distinct.contains(.object(c.sales)))
        #expect(distinct.contains(.object(c.hr)))
    }

    @Test func unionOfObjectsSkipsNil() throws {
        let w = World()
        let c = try company(w)
        try w.setIvar(c.bob, "team", .null)
        #expect(
            try w.value(c.dept, forKeyPath: "employees.@unionOfObjects.team")
                == .array([.object(c.sales), .object(c.sales)]))
    }

    @Test func unionOfArraysAndDistinctUnionOfArrays() throws {
        let w = World()
        let c = try company(w)
        #expect(
            try w.value(c.dept, forKeyPath: "employees.@unionOfArrays.skills")
                == strings("a", "b", "b", "c", "c"))
        guard case .array(let distinct) = try w.value(c.dept, forKeyPath: "employees.@distinctUnionOfArrays.skills")
        else {
            Issue.record("expected an array")
            return
        }
        #expect(Value.set(ValueSet(distinct)) == stringSet("a", "b", "c"))
        #expect(distinct.count == 3)
    }

    @Test func operatorsFollowTheRestOfThePath() throws {
        let w = World()
        let c = try company(w)
        #expect(try w.value(c.dept, forKeyPath: "employees.@max.team.title") == .string("Sales"))
    }

    @Test func operatorsWorkOnSets() throws {
        let w = World()
        let set = stringSet("a", "bb", "ccc")
        #expect(try w.rt.value(of: set, forKeyPath: "@count") == .int(3))
        #expect(try w.rt.value(of: set, forKeyPath: "@max.self") == .string("ccc"))
    }

    @Test func anOperatorOnNilIsNil() throws {
        let w = World()
        let c = try company(w)
        try w.setIvar(c.dept, "employees", .null)
        #expect(try w.value(c.dept, forKeyPath: "employees.@count") == .null)
    }

    /// An unknown operator followed by a path: NSArray finds no
    /// `_medianForKeyPath:` (docs/language.md#collection-operators).
    @Test func anUnknownOperatorFollowedByAPathDoesNotImplementTheOperation() throws {
        let w = World()
        let c = try company(w)
        let error = cocoaException { _ = try w.value(c.dept, forKeyPath: "employees.@median.salary") }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> valueForKeyPath:]: this class does not implement the median operation."
        )
        let unnamed = cocoaException { _ = try w.rt.value(of: .array([.int(1)]), forKeyPath: "@foo.self") }
        #expect(
            unnamed?.reason == "[<__NSArrayM (1)> valueForKeyPath:]: this class does not implement the foo operation.")
    }

    /// An `@word` ending the path goes to the collection's own
    /// `value(forKey:)` without the `@` (docs/language.md#collection-operators).
    @Test func anAtWordEndingThePathIsTheCollectionsOwnKey() throws {
        let w = World()
        let c = try company(w)
        #expect(try w.value(c.dept, forKeyPath: "employees.@lastObject") == .object(c.cy))
        #expect(try w.value(c.dept, forKeyPath: "employees.@firstObject") == .object(c.ann))
        // Followed by a path, `@lastObject` is looked for as an operator.
        let followed = cocoaException { _ = try w.value(c.dept, forKeyPath: "employees.@lastObject.name") }
        #expect(
            followed?.reason
                == "[<__NSArrayM dept.employees> valueForKeyPath:]: this class does not implement the lastObject operation."
        )
        #expect(try w.rt.value(of: .array([]), forKeyPath: "@lastObject") == .null)
        #expect(try w.rt.value(of: .array([]), forKeyPath: "@firstObject") == .null)
        let error = cocoaException { _ = try w.value(c.dept, forKeyPath: "employees.@foo") }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> valueForUndefinedKey:]: this class is not key value coding-compliant for the key foo."
        )
    }

    /// `@avg`, `@max` and `@min` of an empty collection are nil; `@sum` and
    /// `@count` are 0 (docs/language.md#collection-operators).
    @Test func emptyCollectionEdges() throws {
        let w = World()
        let c = try company(w)
        try w.setIvar(c.dept, "employees", .array([]))
        #expect(try w.value(c.dept, forKeyPath: "employees.@avg.salary") == .null)
        #expect(try w.value(c.dept, forKeyPath: "employees.@max.salary") == .null)
        #expect(try w.value(c.dept, forKeyPath: "employees.@min.salary") == .null)
        #expect(try w.value(c.dept, forKeyPath: "employees.@sum.salary") == .int(0))
        #expect(try w.value(c.dept, forKeyPath: "employees.@count") == .int(0))
        #expect(try w.rt.value(of: .set(ValueSet()), forKeyPath: "@avg.self") == .null)
    }
}
