import Testing
@testable import KVOCore

/// docs/language.md#observation-info: observation info dumps.
@Suite struct ObservationInfoTests {
    @Test func nobodyObservingGivesNil() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        #expect(acct.observationInfo == nil)
        #expect(acct.observationInfoDescription == nil)
        #expect(acct.observanceSnapshots.isEmpty)
        #expect(Value.observationInfo(acct).printDescription == "nil")
        #expect(Value.observationInfo(acct).isNull)
        #expect(Value.observationInfo(acct) == .null)
    }

    /// The example of docs/language.md#observation-info, exactly.
    @Test func descriptionMatchesTheSpecExample() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old], context: Context(name: "PersonAccountBalanceContext"))
        #expect(
            acct.observationInfoDescription == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: alice, Key path: balance, Options: <New: YES, Old: YES, Prior: NO> Context: PersonAccountBalanceContext, Property: Account.balance>
                )
                """)
        #expect(Value.observationInfo(acct).printDescription == acct.observationInfoDescription)
        #expect(!Value.observationInfo(acct).isNull)
    }

    /// conformance c12: registration order, Initial never shown, nil context `0x0`.
    @Test func severalObservancesInRegistrationOrderWithoutInitial() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, alice, "balance", [.new, .old], context: Context(name: "BalanceContext"))
        try w.observe(acct, bob, "interestRate", [.prior, .initial])
        #expect(w.take() == ["acct.interestRate → bob {kind = 1}"])
        #expect(
            acct.observationInfoDescription == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: alice, Key path: balance, Options: <New: YES, Old: YES, Prior: NO> Context: BalanceContext, Property: Account.balance>
                <NSKeyValueObservance acct[1]: Observer: bob, Key path: interestRate, Options: <New: NO, Old: NO, Prior: YES> Context: 0x0, Property: Account.interestRate>
                )
                """)
        let snapshots = acct.observanceSnapshots
        #expect(snapshots.map(\.index) == [0, 1])
        #expect(snapshots.map(\.observer) == ["alice", "bob"])
        #expect(snapshots[1].options == [.prior, .initial])
        #expect(snapshots[1].options.names == ["initial", "prior"])
        #expect(snapshots[0].options.names == ["new", "old"])

        try w.unobserve(acct, alice, "balance")
        try w.unobserve(acct, bob, "interestRate")
        #expect(acct.observationInfoDescription == nil)
    }

    /// Identical registrations share one observance (SPEC §8.3): listed
    /// once per registration, under the same name.
    @Test func duplicatesAreListedEachTime() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance")
        try w.observe(acct, alice, "balance")
        #expect(
            acct.observationInfoDescription == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: alice, Key path: balance, Options: <New: NO, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                <NSKeyValueObservance acct[0]: Observer: alice, Key path: balance, Options: <New: NO, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                )
                """)
    }

    @Test func indexesFollowRemovals() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, alice, "balance")
        try w.observe(acct, bob, "balance")
        try w.unobserve(acct, alice, "balance")
        #expect(
            acct.observationInfoDescription == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: bob, Key path: balance, Options: <New: NO, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                )
                """)
    }

    @Test func keyPathObservationListsTheWholePathOnTheRootAndTheRootOnIntermediates() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass("Person", [w.stored("account", .object("Account")), w.stored("name", .string)])
        let acct = try w.object(account, "acct")
        let p = try w.object(person, "person", [("account", .object(acct))])
        let alice = try w.object(w.observerClass("Auditor"), "auditor")
        try w.observe(p, alice, "name")
        try w.observe(p, alice, "account.balance", [.new], context: Context(name: "Audit"))
        let root = p.observanceSnapshots
        #expect(root.count == 2)
        #expect(root[1].observer == "auditor")
        #expect(root[1].keyPath == "account.balance")
        #expect(root[1].context?.name == "Audit")
        #expect(
            acct.observationInfoDescription == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: person[1], Key path: balance, Options: <New: YES, Old: NO, Prior: NO> Context: 0x0, Property: Account.balance>
                )
                """)
    }

    @Test func snapshotsCompareByValueAndContextIdentity() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let ctx = Context(name: "C")
        try w.observe(acct, alice, "balance", [.new], context: ctx)
        let snapshot = try #require(acct.observanceSnapshots.first)
        #expect(
            snapshot
                == ObservanceSnapshot(
                    index: 0, observer: "alice", keyPath: "balance", options: [.new],
                    context: ctx, property: "Account.balance"))
        #expect(
            snapshot
                != ObservanceSnapshot(
                    index: 0, observer: "alice", keyPath: "balance", options: [.new],
                    context: Context(name: "C"), property: "Account.balance"))
    }
}
