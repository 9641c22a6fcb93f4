import Testing
@testable import KVOCore

/// Automatic notification (docs/language.md#when-notified), order and timing (docs/language.md#order)
/// and the mid-change rules (docs/language.md#mid-change).
@Suite struct NotificationOrderTests {
    /// conformance c01.
    @Test func automaticNotificationFiresOnEverySetEvenWhenTheValueIsEqual() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let ctx = Context(name: "BalanceContext")
        try w.observe(acct, alice, "balance", [.new, .old], context: ctx)
        try w.set(acct, "balance", .double(200))
        try w.setValue(.int(250), acct, forKey: "balance")
        try w.set(acct, "balance", .double(250))
        try w.set(acct, "interestRate", .double(0.5))
        try w.unobserve(acct, alice, "balance", context: ctx)
        try w.set(acct, "balance", .double(300))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 200; old = 100} context: BalanceContext",
                "acct.balance → alice {kind = 1; new = 250; old = 200} context: BalanceContext",
                "acct.balance → alice {kind = 1; new = 250; old = 250} context: BalanceContext",
            ])
        #expect(try w.get(acct, "balance") == .double(300))
    }

    @Test func setValueForKeyPathNotifiesObserversOfTheLastObject() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let acct = try w.object(account, "acct")
        let p = try w.object(person, "p", [("account", .object(acct))])
        let watcher = try w.object(w.observerClass(), "watcher")
        try w.observe(acct, watcher, "balance", [.new])
        try w.observe(p, watcher, "account", [.new])
        try w.setValue(.int(7), p, forKeyPath: "account.balance")
        #expect(w.take() == ["acct.balance → watcher {kind = 1; new = 7}"])
    }

    @Test func assigningTheInstanceVariableNeverNotifies() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old, .prior])
        try w.setIvar(acct, "balance", .double(40))
        #expect(w.take() == [])
        #expect(try w.get(acct, "balance") == .double(40))
    }

    /// conformance c03: priors in registration order, after-change in reverse.
    @Test func priorsGoOutInRegistrationOrderAndAfterChangeNotificationsInReverse() throws {
        let w = World()
        let counter = try w.object(w.makeClass("Counter", [w.stored("value", .int)]), "counter")
        let watcher = w.observerClass()
        let first = try w.object(watcher, "first")
        let second = try w.object(watcher, "second")
        let third = try w.object(watcher, "third")
        try w.observe(counter, first, "value", [.new, .prior])
        try w.observe(counter, second, "value", [.new, .prior])
        try w.observe(counter, third, "value", [.new])
        try w.set(counter, "value", .int(1))
        #expect(
            w.take() == [
                "counter.value → first {kind = 1; notificationIsPrior = 1}",
                "counter.value → second {kind = 1; notificationIsPrior = 1}",
                "counter.value → third {kind = 1; new = 1}",
                "counter.value → second {kind = 1; new = 1}",
                "counter.value → first {kind = 1; new = 1}",
            ])
    }

    @Test func reverseOrderHoldsAcrossDifferentObserversAndOptions() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        let carol = try w.object(alice.cls, "carol")
        try w.observe(acct, alice, "balance", [.old])
        try w.observe(acct, bob, "balance", [])
        try w.observe(acct, carol, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(
            w.take() == [
                "acct.balance → carol {kind = 1; new = 1}",
                "acct.balance → bob {kind = 1}",
                "acct.balance → alice {kind = 1; old = 100}",
            ])
    }

    // MARK: Mid-change rules (§6.5)

    @Test func anObserverRemovedBetweenWillAndDidGetsNothing() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, alice, "balance", [.new])
        try w.observe(acct, bob, "balance", [.new])
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.setIvar(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → bob {kind = 1; new = 5}"])
    }

    @Test func theOnlyObserverRemovedBetweenWillAndDidGetsNothing() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func anObserverAddedBetweenWillAndDidGetsNothingForThatChange() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, alice, "balance", [.new])
        try w.will(acct, "balance")
        try w.observe(acct, bob, "balance", [.new])
        try w.setIvar(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 5}"])
        try w.set(acct, "balance", .double(6))
        #expect(
            w.take() == [
                "acct.balance → bob {kind = 1; new = 6}",
                "acct.balance → alice {kind = 1; new = 6}",
            ])
    }

    @Test func anObserverAddedToAnUnobservedObjectBetweenWillAndDidGetsNothing() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.will(acct, "balance")
        try w.observe(acct, alice, "balance", [.new])
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func twoIdenticalRegistrationsOneRemovedMidChangeBothAreDelivered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        try w.observe(acct, alice, "balance", [.new])
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.setIvar(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 5}",
                "acct.balance → alice {kind = 1; new = 5}",
            ])
    }

    @Test func removedAndReAddedIdenticallyMidChangeIsDelivered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let ctx = Context(name: "Ctx")
        try w.observe(acct, alice, "balance", [.new, .old], context: ctx)
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance", context: ctx)
        try w.observe(acct, alice, "balance", [.new, .old], context: ctx)
        try w.setIvar(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 5; old = 100} context: Ctx"])
    }

    @Test func removedAndReAddedWithDifferentOptionsMidChangeIsNotDelivered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func removedAndReAddedWithADifferentContextMidChangeIsNotDelivered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new], context: Context(name: "A"))
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.observe(acct, alice, "balance", [.new], context: Context(name: "B"))
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func removedAndReAddedByAnotherObserverMidChangeIsNotDelivered() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let bob = try w.object(alice.cls, "bob")
        try w.observe(acct, alice, "balance", [.new])
        try w.will(acct, "balance")
        try w.unobserve(acct, alice, "balance")
        try w.observe(acct, bob, "balance", [.new])
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func oldIsReadAtWillTimeAndNewAtDidTime() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.will(acct, "balance")
        try w.setIvar(acct, "balance", .double(1))
        try w.setIvar(acct, "balance", .double(2))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 2; old = 100}"])
    }

    @Test func eachAfterChangeNotificationReadsNewWhenItIsDelivered() throws {
        // The first-delivered observer changes the value in its handler (at depth
        // 1, to an unobserved key's ivar so nothing nests); the observer notified
        // next sees the value as it is then.
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let early = try w.object(w.observerClass("Early"), "early")
        let meddlerClass = w.observerClass("Meddler")
        meddlerClass.ownHooks.observeValue = { _, _, object, _, _ in
            try w.setIvar(object, "balance", .double(999))
        }
        let meddler = try w.object(meddlerClass, "meddler")
        try w.observe(acct, early, "balance", [.new])
        try w.observe(acct, meddler, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(
            w.take() == [
                "acct.balance → meddler {kind = 1; new = 1}",
                "acct.balance → early {kind = 1; new = 999}",
            ])
    }
}
