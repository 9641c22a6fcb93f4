import Testing
@testable import KVOCore

/// An observed object's derived values (`DerivedValues`): a value kept for a
/// key holds until anything is stored into the object's slots, by any way a
/// store is made; objects are never kept.
@Suite struct DerivedValuesTests {
    private let key = ObjectIdentifier(DerivedValuesTests.self)

    private func observedAccount(_ w: World) throws -> (acct: KVOObject, alice: KVOObject) {
        let acct = try w.object(
            w.makeClass("Account", [w.stored("balance", .double), w.stored("owner", .string)]), "acct")
        let alice = try w.object(w.personClass(), "alice")
        try w.observe(acct, alice, "balance", [.new])
        return (acct, alice)
    }

    private func keep(_ value: Value, in object: KVOObject) {
        object.observationInfo?.keepDerived(value, for: key)
    }

    private func kept(in object: KVOObject) -> Value? {
        object.observationInfo?.derivedValue(for: key)
    }

    @Test func aKeptValueHoldsUntilTheNextStoreHoweverItIsMade() throws {
        let w = World()
        let acct = try observedAccount(w).acct
        let stores: [(String, () throws -> Void)] = [
            ("a notifying set", { try w.set(acct, "balance", .double(1)) }),
            ("an instance variable", { try w.setIvar(acct, "owner", .string("bob")) }),
            ("setValue(_:forKey:)", { try w.setValue(.double(2), acct, forKey: "balance") }),
            ("setValue(_:forKeyPath:)", { try w.setValue(.string("carol"), acct, forKeyPath: "owner") }),
        ]
        for (way, store) in stores {
            keep(.string("kept"), in: acct)
            #expect(kept(in: acct).map { "\($0)" } == "\(Value.string("kept"))", "\(way)")
            _ = try w.get(acct, "balance")
            #expect(kept(in: acct) != nil, "a read is no store (\(way))")
            try store()
            #expect(kept(in: acct) == nil, "\(way)")
        }
    }

    @Test func objectsAndCollectionsAreNeverKept() throws {
        let w = World()
        let acct = try observedAccount(w).acct
        keep(.object(acct), in: acct)
        #expect(kept(in: acct) == nil)
        keep(.array([.int(1)]), in: acct)
        #expect(kept(in: acct) == nil)
        keep(.int(7), in: acct)
        if case .int(7)? = kept(in: acct) {} else { Issue.record("an Int is kept") }
    }

    @Test func anObjectObservedAgainStartsWithNothingKept() throws {
        let w = World()
        let (acct, alice) = try observedAccount(w)
        keep(.int(7), in: acct)
        try w.unobserve(acct, alice, "balance")
        #expect(acct.observationInfo == nil)
        try w.observe(acct, try w.object(w.personClass(), "bob"), "balance", [.new])
        #expect(kept(in: acct) == nil)
    }
}
