import Testing

@testable import KVOCore

/// `o.items.append(x)`, `o.items[i] = x` and `o.items += xs` change the array where it is
/// when nobody can tell (`KVORuntime.changeArrayInPlace`): a get, a change
/// and a set copied the array on every change, the slot still holding it
/// (40,000 appends took 36 s, 20,000 element sets 5 s). Anything that could
/// tell falls back to the set.
@Suite struct ArrayChangeInPlaceTests {
    /// An append as the language runs it: read, then in place or not.
    func append(_ w: World, _ object: KVOObject, _ key: String, _ element: Value) throws -> Bool {
        let property = try w.property(object, key)
        var read = try w.rt.get(object, property)
        return w.rt.changeArrayInPlace(object, property, storing: element, read: &read) { $0.append($1) }
    }

    func identity(_ object: KVOObject, slot: Int) -> ObjectIdentifier? {
        guard case .array(let elements) = object[slot: slot] else { return nil }
        return elements.identity
    }

    @Test func anUnobservedStoredArrayGrowsWhereItIs() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("items", .array(.int))])
        let object = try w.object(bag)
        var storages = Set<ObjectIdentifier?>()
        for index in 0..<1_000 {
            #expect(try append(w, object, "items", .int(index)))
            storages.insert(identity(object, slot: 0))
        }
        // Doubling from 1 to 1,024 elements: about ten storages, not 1,000.
        #expect(storages.count < 20)
        #expect(object[slot: 0] == .array((0..<1_000).map { .int($0) }))
    }

    @Test func anElementIsReplacedWhereItIs() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("levels", .array(.double))])
        let object = try w.object(bag, nil, [("levels", .array([.double(0.5), .double(1.5)]))])
        let before = identity(object, slot: 0)
        let property = try w.property(object, "levels")
        var read = try w.rt.get(object, property)
        #expect(w.rt.changeArrayInPlace(object, property, storing: .int(7), read: &read) { $0[1] = $1 })
        #expect(identity(object, slot: 0) == before)
        #expect(object[slot: 0] == .array([.double(0.5), .double(7)]))
    }

    @Test func contentsAreAppendedWhereTheArrayIsOrNotAtAll() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("levels", .array(.double))])
        let object = try w.object(bag, nil, [("levels", .array([.double(0.5)]))])
        let property = try w.property(object, "levels")
        var storages = Set<ObjectIdentifier?>()
        for index in 0..<500 {
            var read = try w.rt.get(object, property)
            let added = Value.array([.int(index), .double(0.25)])
            #expect(w.rt.appendInPlace(object, property, contentsOf: added, read: &read))
            storages.insert(identity(object, slot: 0))
        }
        #expect(storages.count < 20)
        guard case .array(let levels) = object[slot: 0] else { return }
        #expect(levels.count == 1_001)
        #expect(levels[1] == .double(0) && levels[2] == .double(0.25))
        // One refused element: nothing is appended, the set decides.
        var read = try w.rt.get(object, property)
        #expect(!w.rt.appendInPlace(object, property, contentsOf: .array([.int(1), .string("no")]), read: &read))
        #expect(read != .null)
        guard case .array(let after) = object[slot: 0] else { return }
        #expect(after.count == 1_001)
    }

    @Test func anElementIsConvertedAsTheSetWouldConvertIt() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("levels", .array(.double)), w.stored("anything", .any)])
        let object = try w.object(bag, nil, [("levels", .array([.double(0.5)])), ("anything", .array([]))])
        #expect(try append(w, object, "levels", .int(2)))
        #expect(object[slot: 0] == .array([.double(0.5), .double(2)]))
        #expect(try append(w, object, "anything", .string("x")))
        #expect(object[slot: 1] == .array([.string("x")]))
        // A refused element is the set's to report.
        #expect(try !append(w, object, "levels", .string("high")))
        #expect(object[slot: 0] == .array([.double(0.5), .double(2)]))
    }

    @Test func whatCouldTellLeavesItToTheSet() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("items", .array(.int)), w.stored("tags", .array(.object("Bag")))])
        let watched = try w.object(bag, nil, [("items", .array([.int(1)]))])
        let observer = try w.object(bag)
        try w.observe(watched, observer, "items", [.old])
        // Observed: the will-change keeps the old array.
        #expect(try !append(w, watched, "items", .int(2)))
        // A setter of its own sees the new array.
        let custom = try w.property(observer, "items")
        custom.setter = { object, value in object[slot: 0] = value }
        #expect(try !append(w, observer, "items", .int(2)))
        custom.setter = nil
        // A read the slot no longer holds: the set stores what was read, appended to.
        let plain = try w.object(bag, nil, [("items", .array([.int(1)]))])
        let property = try w.property(plain, "items")
        var stale = try w.rt.get(plain, property)
        plain[slot: 0] = .array([.int(7)])
        #expect(!w.rt.changeArrayInPlace(plain, property, storing: .int(2), read: &stale) { $0.append($1) })
        #expect(stale == .array([.int(1)]))
        // Element types checked by more than a tag go through the set.
        #expect(try !append(w, plain, "tags", .object(plain)))
        // No array at all.
        plain[slot: 0] = .null
        #expect(try !append(w, plain, "items", .int(2)))
    }

    /// Every set of a typed array property checks the array: one that
    /// needs no conversion is kept, not copied element by element.
    @Test func aCheckedArrayIsKeptUnlessAnElementConverts() throws {
        let ints = PackedArray((0..<100).map { Value.int($0) })
        guard case .array(let kept)? = ValueType.array(.int).accept(.array(ints)) else {
            Issue.record("refused")
            return
        }
        #expect(kept.identity == ints.identity)
        guard case .array(let converted)? = ValueType.array(.double).accept(.array([.double(0.5), .int(2)])) else {
            Issue.record("refused")
            return
        }
        #expect(Value.array(converted) == .array([.double(0.5), .double(2)]))
        #expect(ValueType.array(.int).accept(.array([.int(1), .string("a")])) == nil)
        #expect(ValueType.array(.object("Bag")).accept(.array([.int(1)])) == nil)
    }

    @Test func anArrayKVCStoredUncheckedIsCheckedWhole() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("items", .array(.int))])
        let object = try w.object(bag)
        let property = try w.property(object, "items")
        #expect(!property.mayHoldRefusedElements)
        // KVC keeps an array the type refuses as it is (SPEC §4.2) …
        try w.setValue(.array([.string("a")]), object, forKey: "items")
        #expect(object[slot: 0] == .array([.string("a")]))
        #expect(property.mayHoldRefusedElements)
        // … so the set, which checks the whole array, decides.
        #expect(try !append(w, object, "items", .int(1)))
        #expect(throws: ScriptError.self) { try w.set(object, "items", .array([.string("a"), .int(1)])) }
        // A checked array again: appended in place, the elements checked.
        try w.set(object, "items", .array([.int(0)]))
        #expect(try append(w, object, "items", .int(1)))
        #expect(object[slot: 0] == .array([.int(0), .int(1)]))
    }
}
