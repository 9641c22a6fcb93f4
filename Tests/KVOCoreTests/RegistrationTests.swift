import Testing
@testable import KVOCore

/// docs/language.md#registration: registration, duplicates, removal of the most recent match, NSRangeException.
@Suite struct RegistrationTests {
    let removeReason =
        "Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer."

    @Test func eachAddObserverCreatesOneObservanceAndDuplicatesEachGetANotification() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        try w.observe(acct, alice, "balance", [.new])
        #expect(acct.observationInfo?.observances.count == 2)
        try w.set(acct, "balance", .double(5))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 5}",
                "acct.balance → alice {kind = 1; new = 5}",
            ])
    }

    @Test func duplicatesWithDifferentContextsAreDeliveredMostRecentFirst() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let one = Context(name: "One"), two = Context(name: "Two")
        try w.observe(acct, alice, "balance", [.new], context: one)
        try w.observe(acct, alice, "balance", [.new], context: two)
        try w.set(acct, "balance", .double(1))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 1} context: Two",
                "acct.balance → alice {kind = 1; new = 1} context: One",
            ])
    }

    @Test func notifyEventCarriesObjectObserverKeyPathAndContextIdentity() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let ctx = Context(name: "Ctx")
        try w.observe(acct, alice, "balance", [.new, .old], context: ctx)
        try w.set(acct, "balance", .double(200))
        #expect(w.sink.events.count == 1)
        guard
            case .notify(let object, let keyPath, let observer, let change, let context, let depth)? = w.sink.events
                .first
        else {
            Issue.record("expected a notify event")
            return
        }
        #expect(object === acct)
        #expect(observer === alice)
        #expect(keyPath == "balance")
        #expect(context === ctx)
        #expect(depth == 0)
        #expect(change == Change(kind: .setting, new: .double(200), old: .double(100)))
    }

    /// conformance c04.
    @Test func removeWithoutContextRemovesTheMostRecentRegistration() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let one = Context(name: "One"), two = Context(name: "Two")
        try w.observe(acct, alice, "balance", [.new], context: one)
        try w.observe(acct, alice, "balance", [.new], context: two)
        try w.unobserve(acct, alice, "balance")
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 1} context: One"])

        let error = cocoaException { try w.unobserve(acct, alice, "balance", context: two) }
        #expect(error?.name == "NSRangeException")
        #expect(error?.reason == removeReason)

        try w.unobserve(acct, alice, "balance", context: one)
        try w.set(acct, "balance", .double(2))
        #expect(w.take() == [])
        let last = cocoaException { try w.unobserve(acct, alice, "balance") }
        #expect(last == CocoaException(name: "NSRangeException", reason: removeReason, depth: 0))
    }

    @Test func removeWithContextRemovesTheMostRecentMatchForThatContext() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let one = Context(name: "One"), two = Context(name: "Two")
        try w.observe(acct, alice, "balance", [.new], context: one)
        try w.observe(acct, alice, "balance", [.new], context: two)
        try w.observe(acct, alice, "balance", [.old], context: one)
        try w.unobserve(acct, alice, "balance", context: one)
        let remaining = acct.observanceSnapshots
        #expect(remaining.count == 2)
        #expect(remaining.map(\.options) == [[.new], [.new]])
        #expect(remaining.map { $0.context?.name } == ["One", "Two"])
    }

    @Test func removalsStillFindTheMostRecentMatchAfterTheInfoIsCompacted() throws {
        // Removed entries leave holes that a compaction closes once more than
        // half are holes; the index by observer must survive it.
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let one = Context(name: "One"), two = Context(name: "Two")
        let watcher = w.observerClass("Crowd")
        let crowd = try (0..<64).map { try w.object(watcher, "c\($0)") }
        try w.observe(acct, alice, "balance", [.new], context: one)
        for member in crowd { try w.observe(acct, member, "balance", [.new]) }
        try w.observe(acct, alice, "balance", [.new], context: two)
        try w.observe(acct, alice, "balance", [.old], context: one)
        for member in crowd.prefix(60) { try w.unobserve(acct, member, "balance") }
        #expect(acct.observationInfo?.observances.count == 7)
        try w.unobserve(acct, alice, "balance", context: one)
        #expect(acct.observanceSnapshots.filter { $0.observer == "alice" }.map(\.options) == [[.new], [.new]])
        try w.unobserve(acct, alice, "balance")
        #expect(acct.observanceSnapshots.filter { $0.observer == "alice" }.map { $0.context?.name } == ["One"])
        for member in crowd.suffix(4) { try w.unobserve(acct, member, "balance") }
        try w.unobserve(acct, alice, "balance", context: one)
        #expect(acct.observationInfo == nil)
        let error = cocoaException { try w.unobserve(acct, alice, "balance") }
        #expect(error?.reason == removeReason)
    }

    @Test func removeWithNilContextMatchesOnlyTheNilContext() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let one = Context(name: "One")
        try w.observe(acct, alice, "balance", [.new], context: one)
        let error = cocoaException { try w.unobserve(acct, alice, "balance", context: nil) }
        #expect(error?.name == "NSRangeException")
        #expect(error?.reason == removeReason)
        #expect(acct.observationInfo?.observances.count == 1)

        try w.observe(acct, alice, "balance", [.new], context: nil)
        try w.unobserve(acct, alice, "balance", context: nil)
        #expect(acct.observanceSnapshots.map { $0.context?.name } == ["One"])
    }

    @Test func contextsCompareByIdentityNotName() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let first = Context(name: "Same"), second = Context(name: "Same")
        try w.observe(acct, alice, "balance", [.new], context: first)
        let error = cocoaException { try w.unobserve(acct, alice, "balance", context: second) }
        #expect(error?.name == "NSRangeException")
        try w.unobserve(acct, alice, "balance", context: first)
        #expect(acct.observationInfo == nil)
    }

    @Test func removingFromAnObjectNobodyObservesRaisesRangeExceptionWithAppleText() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let error = cocoaException { try w.unobserve(acct, alice, "balance") }
        #expect(error?.name == "NSRangeException")
        #expect(error?.reason == removeReason)
        #expect(error?.depth == 0)
    }

    @Test func removalMatchesObserverIdentityAndExactKeyPath() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, bob, "balance", [.new])
        let wrongObserver = cocoaException { try w.unobserve(acct, alice, "balance") }
        #expect(wrongObserver?.reason == removeReason)
        let wrongPath = cocoaException { try w.unobserve(acct, bob, "interestRate") }
        #expect(
            wrongPath?.reason
                == "Cannot remove an observer <Person bob> for the key path \"interestRate\" from <Account acct> because it is not registered as an observer."
        )
        #expect(acct.observationInfo?.observances.count == 1)
        try w.set(acct, "balance", .double(3))
        #expect(w.take() == ["acct.balance → bob {kind = 1; new = 3}"])
    }

    @Test func removingTheLastObservanceLeavesNoObservationInfo() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        #expect(acct.observationInfo != nil)
        try w.unobserve(acct, alice, "balance")
        #expect(acct.observationInfo == nil)
        try w.set(acct, "balance", .double(9))
        #expect(w.take() == [])
        #expect(try w.get(acct, "balance") == .double(9))
    }

    @Test func removedRegistrationIsMarkedUnregistered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        let observance = try #require(acct.observationInfo?.observances.first)
        #expect(observance.isRegistered)
        try w.unobserve(acct, alice, "balance")
        #expect(!observance.isRegistered)
    }

    @Test func onlyTheObservedKeyNotifies() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        try w.set(acct, "interestRate", .double(0.5))
        #expect(w.take() == [])
        #expect(try w.get(acct, "interestRate") == .double(0.5))
    }

    @Test func anUnobservedSetNotifiesNobody() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        try w.set(acct, "balance", .double(1))
        #expect(w.sink.events.isEmpty)
        #expect(w.rt.notificationCount == 0)
    }

    @Test func messagingNilDoesNothing() throws {
        let w = World()
        let (_, alice) = try w.acctAndAlice()
        try w.rt.addObserver(alice, to: .null, keyPath: "balance", options: [.initial, .new], context: nil)
        try w.rt.removeObserver(alice, from: .null, keyPath: "balance", context: .any)
        #expect(w.sink.events.isEmpty)
    }

    @Test func observingAnUndeclaredKeyIsAllowedAndManualNotificationsReachIt() throws {
        // Apple registers observers for any key; only reading its value raises.
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "whatever")
        try w.will(acct, "whatever")
        try w.did(acct, "whatever")
        #expect(w.take() == ["acct.whatever → alice {kind = 1}"])
    }

    @Test func notificationCountCountsDeliveredNotifications() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .initial])
        try w.set(acct, "balance", .double(1))
        try w.set(acct, "balance", .double(2))
        #expect(w.rt.notificationCount == 3)
    }

    @Test func anInitialHandlerThatThrowsLeavesTheObserverUnregistered() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let thrower = w.observerClass("Thrower")
        thrower.ownHooks.observeValue = { _, _, _, _, _ in throw w.rt.exception(("NSGenericException", "no")) }
        let t = try w.object(thrower, "t")
        let error = cocoaException { try w.observe(acct, t, "balance", [.initial]) }
        #expect(error?.reason == "no")
        #expect(w.take() == ["acct.balance → t {kind = 1}"])
        #expect(acct.observationInfo == nil)
    }
}
