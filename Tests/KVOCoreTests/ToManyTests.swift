import Testing
@testable import KVOCore

/// docs/language.md#change-dictionary to-many changes: `mutableArrayValue` (kinds 2/3/4 with indexes and
/// only the affected elements) and `mutableSetValue` (union/minus/intersect/set).
@Suite struct ToManyTests {
    func list(_ w: World, _ items: [String] = [], manual: Bool = false) throws -> (KVOObject, KVOObject) {
        let cls = w.makeClass("List", [w.stored("items", .array(.string), manual: manual)])
        let l = try w.object(cls, "l", [("items", .array(items.map(Value.string)))])
        let p = try w.object(w.personClass(), "p")
        return (l, p)
    }

    func insert(_ w: World, _ l: KVOObject, _ values: [String], at indexes: [Int]) throws {
        try w.rt.mutateArray(l, keyPath: "items", .insert(values.map(Value.string), at: indexes))
    }

    /// conformance c08.
    @Test func orderedProxyMutationsNotifyWithKindsIndexesAndOnlyTheAffectedElements() throws {
        let w = World()
        let transaction = w.makeClass("Transaction", [w.stored("amount", .double)])
        let account = w.makeClass("Account", [w.stored("transactions", .array(.object("Transaction")))])
        let acct = try w.object(account, "acct")
        let ledger = try w.object(w.observerClass("Ledger"), "ledger")
        let t1 = try w.object(transaction, "t1", [("amount", .double(10))])
        let t2 = try w.object(transaction, "t2", [("amount", .double(20))])
        let t3 = try w.object(transaction, "t3", [("amount", .double(30))])
        try w.observe(acct, ledger, "transactions", [.old, .new])
        func count() throws -> Int {
            guard case .array(let items) = try w.get(acct, "transactions") else { return -1 }
            return items.count
        }
        try w.rt.mutateArray(acct, keyPath: "transactions", .insert([.object(t1)], at: [try count()]))  // add(t1)
        try w.rt.mutateArray(acct, keyPath: "transactions", .insert([.object(t2)], at: [try count()]))  // add(t2)
        try w.rt.mutateArray(acct, keyPath: "transactions", .insert([.object(t3)], at: [0]))
        try w.rt.mutateArray(acct, keyPath: "transactions", .replace(at: [1], with: [.object(t2)]))
        try w.rt.mutateArray(acct, keyPath: "transactions", .remove(at: [0]))
        try w.rt.mutateArray(acct, keyPath: "transactions", .remove(at: [try count() - 1]))  // removeLastObject
        #expect(try count() == 1)
        try w.set(acct, "transactions", .array([.object(t1), .object(t2)]))
        #expect(
            w.take() == [
                "acct.transactions → ledger {indexes = (0); kind = 2; new = (<Transaction: t1>)}",
                "acct.transactions → ledger {indexes = (1); kind = 2; new = (<Transaction: t2>)}",
                "acct.transactions → ledger {indexes = (0); kind = 2; new = (<Transaction: t3>)}",
                "acct.transactions → ledger {indexes = (1); kind = 4; new = (<Transaction: t2>); old = (<Transaction: t1>)}",
                "acct.transactions → ledger {indexes = (0); kind = 3; old = (<Transaction: t3>)}",
                "acct.transactions → ledger {indexes = (1); kind = 3; old = (<Transaction: t2>)}",
                "acct.transactions → ledger {kind = 1; new = (<Transaction: t1>, <Transaction: t2>); old = (<Transaction: t2>)}",
            ])
    }

    @Test func insertionAtSeveralIndexesUsesFinalPositions() throws {
        let w = World()
        let (l, p) = try list(w, ["a", "b", "c", "d"])
        try w.observe(l, p, "items", [.old, .new])
        try insert(w, l, ["x", "y"], at: [1, 3])
        #expect(w.take() == ["l.items → p {indexes = (1, 3); kind = 2; new = (x, y)}"])
        #expect(try w.get(l, "items") == strings("a", "x", "b", "y", "c", "d"))
    }

    @Test func removalAtSeveralIndexesReportsTheRemovedElementsInIndexOrder() throws {
        let w = World()
        let (l, p) = try list(w, ["a", "b", "c", "d"])
        try w.observe(l, p, "items", [.old, .new])
        try w.rt.mutateArray(l, keyPath: "items", .remove(at: [0, 2]))
        #expect(w.take() == ["l.items → p {indexes = (0, 2); kind = 3; old = (a, c)}"])
        #expect(try w.get(l, "items") == strings("b", "d"))
    }

    @Test func replacementAtSeveralIndexes() throws {
        let w = World()
        let (l, p) = try list(w, ["a", "b", "c"])
        try w.observe(l, p, "items", [.old, .new])
        try w.rt.mutateArray(l, keyPath: "items", .replace(at: [0, 2], with: [.string("x"), .string("z")]))
        #expect(w.take() == ["l.items → p {indexes = (0, 2); kind = 4; new = (x, z); old = (a, c)}"])
        #expect(try w.get(l, "items") == strings("x", "b", "z"))
    }

    @Test func replacingWithAnEqualElementStillNotifies() throws {
        let w = World()
        let (l, p) = try list(w, ["a"])
        try w.observe(l, p, "items", [.old, .new])
        try w.rt.mutateArray(l, keyPath: "items", .replace(at: [0], with: [.string("a")]))
        #expect(w.take() == ["l.items → p {indexes = (0); kind = 4; new = (a); old = (a)}"])
    }

    @Test func removingAllObjectsIsOneRemovalOfEveryIndex() throws {
        let w = World()
        let (l, p) = try list(w, ["a", "b", "c"])
        try w.observe(l, p, "items", [.old, .new])
        try w.rt.mutateArray(l, keyPath: "items", .remove(at: [0, 1, 2]))
        #expect(w.take() == ["l.items → p {indexes = (0, 1, 2); kind = 3; old = (a, b, c)}"])
        #expect(try w.get(l, "items") == .array([]))
    }

    @Test func newAndOldAreLeftOutWhenNotAsked() throws {
        let w = World()
        let (l, p) = try list(w, ["a"])
        try w.observe(l, p, "items", [])
        try insert(w, l, ["b"], at: [1])
        try w.rt.mutateArray(l, keyPath: "items", .remove(at: [0]))
        try w.rt.mutateArray(l, keyPath: "items", .replace(at: [0], with: [.string("c")]))
        #expect(
            w.take() == [
                "l.items → p {indexes = (1); kind = 2}",
                "l.items → p {indexes = (0); kind = 3}",
                "l.items → p {indexes = (0); kind = 4}",
            ])
    }

    @Test func priorNotificationsOfToManyChangesCarryIndexesAndOld() throws {
        let w = World()
        let (l, p) = try list(w, ["a"])
        try w.observe(l, p, "items", [.prior, .old, .new])
        try insert(w, l, ["b"], at: [1])
        try w.rt.mutateArray(l, keyPath: "items", .replace(at: [0], with: [.string("c")]))
        try w.rt.mutateArray(l, keyPath: "items", .remove(at: [0]))
        #expect(
            w.take() == [
                "l.items → p {indexes = (1); kind = 2; notificationIsPrior = 1}",
                "l.items → p {indexes = (1); kind = 2; new = (b)}",
                "l.items → p {indexes = (0); kind = 4; notificationIsPrior = 1; old = (a)}",
                "l.items → p {indexes = (0); kind = 4; new = (c); old = (a)}",
                "l.items → p {indexes = (0); kind = 3; notificationIsPrior = 1; old = (c)}",
                "l.items → p {indexes = (0); kind = 3; old = (c)}",
            ])
    }

    @Test func toManyNotificationsAlsoGoInReverseRegistrationOrder() throws {
        let w = World()
        let (l, p) = try list(w)
        let q = try w.object(p.cls, "q")
        try w.observe(l, p, "items", [.new])
        try w.observe(l, q, "items", [.new])
        try insert(w, l, ["a"], at: [0])
        #expect(
            w.take() == [
                "l.items → q {indexes = (0); kind = 2; new = (a)}",
                "l.items → p {indexes = (0); kind = 2; new = (a)}",
            ])
    }

    @Test func proxyMutationsOfAnUnobservedObjectStoreWithoutEvents() throws {
        let w = World()
        let (l, _) = try list(w, ["a"])
        try insert(w, l, ["b"], at: [1])
        #expect(w.sink.events.isEmpty)
        #expect(try w.get(l, "items") == strings("a", "b"))
    }

    @Test func proxyMutationsOfAManualKeyDoNotNotify() throws {
        let w = World()
        let (l, p) = try list(w, ["a"], manual: true)
        try w.observe(l, p, "items", [.new])
        try insert(w, l, ["b"], at: [1])
        #expect(w.take() == [])
        #expect(try w.get(l, "items") == strings("a", "b"))
    }

    @Test func aProxyForAKeyPathMutatesAndNotifiesTheLastObject() throws {
        let w = World()
        let (l, p) = try list(w, ["a"])
        let holder = w.makeClass("Holder", [w.stored("list", .object("List"))])
        let h = try w.object(holder, "h", [("list", .object(l))])
        try w.observe(l, p, "items", [.new])
        try w.rt.mutateArray(h, keyPath: "list.items", .insert([.string("b")], at: [0]))
        #expect(w.take() == ["l.items → p {indexes = (0); kind = 2; new = (b)}"])
        #expect(try w.rt.proxyContents(.arrayProxy(h, keyPath: "list.items")) == strings("b", "a"))
    }

    @Test func aNilArrayReadsAsEmptyThroughTheProxy() throws {
        let w = World()
        let cls = w.makeClass("List", [w.stored("items", .array(.string))])
        let l = try w.object(cls, "l", [("items", .null)])
        #expect(try w.rt.proxyContents(.arrayProxy(l, keyPath: "items")) == .array([]))
        try w.rt.mutateArray(l, keyPath: "items", .insert([.string("a")], at: [0]))
        #expect(try w.get(l, "items") == strings("a"))
    }

    @Test func valueForKeyThroughAProxyReadsTheCurrentContents() throws {
        let w = World()
        let (l, _) = try list(w, ["a", "b"])
        let proxy = Value.arrayProxy(l, keyPath: "items")
        #expect(try w.rt.value(of: proxy, forKeyPath: "@count") == .int(2))
        try insert(w, l, ["c"], at: [2])
        #expect(try w.rt.value(of: proxy, forKeyPath: "@count") == .int(3))
    }

    @Test func aProxyForAnUndefinedKeyRaisesUnknownKey() throws {
        let w = World()
        let (l, _) = try list(w)
        let error = cocoaException { try w.rt.mutateArray(l, keyPath: "nope", .insert([.int(1)], at: [0])) }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<List l> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope.")
    }

    // MARK: Sets

    func tagged(_ w: World) throws -> (KVOObject, KVOObject) {
        let account = w.makeClass("Account", [w.stored("tags", .set(.string))])
        let acct = try w.object(account, "acct")
        let p = try w.object(w.personClass(), "p")
        return (acct, p)
    }

    func mutate(_ w: World, _ acct: KVOObject, _ mutation: SetMutation, _ values: String...) throws {
        try w.rt.mutateSet(acct, keyPath: "tags", mutation, ValueSet(values.map(Value.string)))
    }

    /// conformance c15.
    @Test func setMutationsNotifyWithoutIndexesAndOnlyWhatActuallyChanged() throws {
        let w = World()
        let (acct, p) = try tagged(w)
        try w.observe(acct, p, "tags", [.old, .new])
        try mutate(w, acct, .union, "a", "b", "c")
        try mutate(w, acct, .union, "c", "d")
        try mutate(w, acct, .minus, "a", "z")
        try mutate(w, acct, .union, "e")  // add("e")
        try mutate(w, acct, .intersect, "b", "c", "e")
        try mutate(w, acct, .set, "c", "f")
        #expect(
            w.take() == [
                "acct.tags → p {kind = 2; new = {(a, b, c)}}",
                "acct.tags → p {kind = 2; new = {(d)}}",
                "acct.tags → p {kind = 3; old = {(a)}}",
                "acct.tags → p {kind = 2; new = {(e)}}",
                "acct.tags → p {kind = 3; old = {(d)}}",
                "acct.tags → p {kind = 4; new = {(f)}; old = {(b, e)}}",
            ])
        #expect(try w.get(acct, "tags").collectionDescription == "{(c, f)}")
        #expect(try w.get(acct, "tags") == stringSet("f", "c"))
    }

    @Test func aSetMutationThatChangesNothingStillNotifies() throws {
        let w = World()
        let (acct, p) = try tagged(w)
        try w.setIvar(acct, "tags", stringSet("a"))
        try w.observe(acct, p, "tags", [.old, .new])
        try mutate(w, acct, .union, "a")
        try mutate(w, acct, .minus, "z")
        #expect(
            w.take() == [
                "acct.tags → p {kind = 2; new = {()}}",
                "acct.tags → p {kind = 3; old = {()}}",
            ])
    }

    @Test func setPriorNotificationsCarryOldWithoutIndexes() throws {
        let w = World()
        let (acct, p) = try tagged(w)
        try w.setIvar(acct, "tags", stringSet("a", "b"))
        try w.observe(acct, p, "tags", [.prior, .old, .new])
        try mutate(w, acct, .minus, "a")
        try mutate(w, acct, .union, "c")
        #expect(
            w.take() == [
                "acct.tags → p {kind = 3; notificationIsPrior = 1; old = {(a)}}",
                "acct.tags → p {kind = 3; old = {(a)}}",
                "acct.tags → p {kind = 2; notificationIsPrior = 1}",
                "acct.tags → p {kind = 2; new = {(c)}}",
            ])
    }

    @Test func wholeSetAssignmentIsASetting() throws {
        let w = World()
        let (acct, p) = try tagged(w)
        try w.observe(acct, p, "tags", [.old, .new])
        try w.set(acct, "tags", stringSet("b", "a"))
        #expect(w.take() == ["acct.tags → p {kind = 1; new = {(a, b)}; old = {()}}"])
    }

    @Test func setChangeComputesAddedRemovedAndResult() {
        let current = ValueSet([.string("a"), .string("b")])
        let (spec, result) = KVORuntime.setChange(current, .set, ValueSet([.string("b"), .string("c")]))
        guard case .unordered(let kind, let added, let removed) = spec else {
            Issue.record("expected an unordered change")
            return
        }
        #expect(kind == .replacement)
        #expect(Value.set(added) == stringSet("c"))
        #expect(Value.set(removed) == stringSet("a"))
        #expect(Value.set(result) == stringSet("b", "c"))
    }

    // MARK: Index errors

    @Test func beyondBoundsReasonsUseApplesWording() {
        let beyond = Exceptions.beyondBounds("objectAtIndex:", index: 5, count: 3)
        #expect(beyond.0 == "NSRangeException")
        #expect(beyond.1 == "*** -[NSMutableArray objectAtIndex:]: index 5 beyond bounds [0 .. 2]")
        #expect(
            Exceptions.beyondBounds("removeObjectAtIndex:", index: 0, count: 0).1
                == "*** -[NSMutableArray removeObjectAtIndex:]: index 0 beyond bounds for empty array")
        #expect(
            Exceptions.beyondBounds("objectAtIndex:", index: -1, count: 2).1
                == "*** -[NSMutableArray objectAtIndex:]: index 18446744073709551615 beyond bounds [0 .. 1]")
    }
}
