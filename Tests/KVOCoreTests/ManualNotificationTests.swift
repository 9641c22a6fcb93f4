import Testing
@testable import KVOCore

/// Manual notification and @manual (docs/language.md#when-notified) and the nesting rules
/// (docs/language.md#mid-change).
@Suite struct ManualNotificationTests {
    func manualAccount(_ w: World) throws -> (KVOObject, KVOObject) {
        let account = w.makeClass(
            "Account",
            [
                w.stored("balance", .double, manual: true),
                w.stored("itemChanged", .int, manual: true),
                w.stored("interestRate", .double),
            ])
        let acct = try w.object(account, "acct")
        let p = try w.object(w.personClass(), "p")
        return (acct, p)
    }

    @Test func manualPropertySuppressesAutomaticNotification() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.new, .old, .prior])
        try w.set(acct, "balance", .double(10))
        try w.setValue(.int(20), acct, forKey: "balance")
        #expect(w.take() == [])
        #expect(try w.get(acct, "balance") == .double(20))
        #expect(try acct.cls.automaticallyNotifies(forKey: "balance") == false)
        #expect(try acct.cls.automaticallyNotifies(forKey: "interestRate") == true)
    }

    @Test func manualWillDidNotifiesAManualKey() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.new, .old])
        try w.will(acct, "balance")
        try w.setIvar(acct, "balance", .double(7))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 7; old = 0}"])
    }

    @Test func automaticallyNotifiesObserversHookSuppressesAutomaticNotification() throws {
        let w = World()
        let account = w.accountClass()
        account.ownHooks.automaticallyNotifiesObservers = { key in key != "balance" }
        let savings = w.makeClass("Savings", superclass: account)
        let s = try w.object(savings, "s")
        let p = try w.object(w.personClass(), "p")
        try w.observe(s, p, "balance", [.new])
        try w.observe(s, p, "interestRate", [.new])
        try w.set(s, "balance", .double(1))
        try w.set(s, "interestRate", .double(2))
        #expect(w.take() == ["s.interestRate → p {kind = 1; new = 2}"])
    }

    @Test func manualAndAutomaticAreNotExclusiveBothFire() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.will(acct, "balance")
        try w.set(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 5; old = 100}",
                "acct.balance → alice {kind = 1; new = 5; old = 100}",
            ])
    }

    /// conformance c05: nested will/did pairs for two keys.
    @Test func nestedManualChangesOfTwoKeysEachDidDeliversOnlyItsOwnKey() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.setIvar(acct, "balance", .double(20))
        try w.observe(acct, p, "balance", [.old, .new])
        try w.observe(acct, p, "itemChanged", [.old, .new])
        try w.will(acct, "balance")
        try w.will(acct, "itemChanged")
        try w.setIvar(acct, "balance", .double(30))
        try w.setIvar(acct, "itemChanged", .int(1))
        try w.did(acct, "itemChanged")
        #expect(w.take() == ["acct.itemChanged → p {kind = 1; new = 1; old = 0}"])
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 30; old = 20}"])
    }

    @Test func nestedManualChangesOfTheSameKeyPopTheMostRecentWill() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.old, .new])
        try w.will(acct, "balance")
        try w.setIvar(acct, "balance", .double(1))
        try w.will(acct, "balance")
        try w.setIvar(acct, "balance", .double(2))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 2; old = 1}"])
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 2; old = 0}"])
    }

    @Test func didChangeWithoutWillChangeDeliversNothing() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.old, .new])
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func didChangeOfAnotherKeyDoesNotConsumeThePendingWill() throws {
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.new])
        try w.will(acct, "balance")
        try w.did(acct, "itemChanged")
        #expect(w.take() == [])
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 0}"])
        try w.did(acct, "balance")
        #expect(w.take() == [])
    }

    @Test func didChangeOnlyConsumesThePendingChangeOfItsOwnObject() throws {
        let w = World()
        let account = w.accountClass()
        let a = try w.object(account, "a")
        let b = try w.object(account, "b")
        let p = try w.object(w.personClass(), "p")
        try w.observe(a, p, "balance", [.new])
        try w.observe(b, p, "balance", [.new])
        try w.will(a, "balance")
        try w.will(b, "balance")
        try w.did(a, "balance")
        #expect(w.take() == ["a.balance → p {kind = 1; new = 0}"])
        try w.did(b, "balance")
        #expect(w.take() == ["b.balance → p {kind = 1; new = 0}"])
    }

    @Test func aPendingWillChangeStaysPendingUntilItsDidChange() throws {
        // §7: a willChange whose didChange never came (an exception unwound past it)
        // stays pending, as in Cocoa.
        let w = World()
        let (acct, p) = try manualAccount(w)
        try w.observe(acct, p, "balance", [.old, .new])
        try w.will(acct, "balance")
        try w.setIvar(acct, "balance", .double(3))
        try w.will(acct, "itemChanged")
        try w.did(acct, "itemChanged")
        #expect(w.take() == [])
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 3; old = 0}"])
    }

    /// conformance c05: a @manual key with a custom setter notifying only on change.
    @Test func customSetterNotifyingOnlyWhenTheValueChanges() throws {
        let w = World()
        let balance = w.stored("balance", .double, manual: true)
        let account = w.makeClass("Account", [balance])
        balance.setter = { object, newValue in
            if newValue != World.ivar(object, "balance") {
                try w.will(object, "balance")
                try w.setIvar(object, "balance", newValue)
                try w.did(object, "balance")
            }
        }
        let acct = try w.object(account, "acct")
        let p = try w.object(w.personClass(), "p")
        try w.observe(acct, p, "balance", [.old, .new])
        try w.set(acct, "balance", .int(10))
        try w.set(acct, "balance", .int(10))
        try w.setValue(.int(20), acct, forKey: "balance")
        try w.setIvar(acct, "balance", .double(40))
        #expect(
            w.take() == [
                "acct.balance → p {kind = 1; new = 10; old = 0}",
                "acct.balance → p {kind = 1; new = 20; old = 10}",
            ])
        #expect(try w.get(acct, "balance") == .double(40))
    }

    @Test func automaticKeyWithCustomSetterIsWrappedInWillAndDid() throws {
        let w = World()
        let balance = w.stored("balance", .double)
        let account = w.makeClass("Account", [balance])
        balance.setter = { object, newValue in
            // stores twice the value, without notifying itself
            try w.setIvar(object, "balance", .double((newValue.number ?? 0) * 2))
        }
        let acct = try w.object(account, "acct")
        let p = try w.object(w.personClass(), "p")
        try w.observe(acct, p, "balance", [.old, .new])
        try w.set(acct, "balance", .int(10))
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 20; old = 0}"])
    }

    @Test func manualOrderedToManyChange() throws {
        let w = World()
        let list = w.makeClass("List", [w.stored("items", .array(.string), manual: true)])
        let l = try w.object(list, "l", [("items", strings("a", "b", "c", "d"))])
        let p = try w.object(w.personClass(), "p")
        try w.observe(l, p, "items", [.old, .new, .prior])
        try w.rt.willChange(l, key: "items", .ordered(.removal, [1, 2]))
        #expect(w.take() == ["l.items → p {indexes = (1, 2); kind = 3; notificationIsPrior = 1; old = (b, c)}"])
        try w.setIvar(l, "items", strings("a", "d"))
        try w.did(l, "items")
        #expect(w.take() == ["l.items → p {indexes = (1, 2); kind = 3; old = (b, c)}"])

        try w.rt.willChange(l, key: "items", .ordered(.insertion, [0]))
        try w.setIvar(l, "items", strings("z", "a", "d"))
        try w.did(l, "items")
        #expect(
            w.take() == [
                "l.items → p {indexes = (0); kind = 2; notificationIsPrior = 1}",
                "l.items → p {indexes = (0); kind = 2; new = (z)}",
            ])

        try w.rt.willChange(l, key: "items", .ordered(.replacement, [2]))
        try w.setIvar(l, "items", strings("z", "a", "q"))
        try w.did(l, "items")
        #expect(
            w.take() == [
                "l.items → p {indexes = (2); kind = 4; notificationIsPrior = 1; old = (d)}",
                "l.items → p {indexes = (2); kind = 4; new = (q); old = (d)}",
            ])
    }

    @Test func manualSetMutationWorksOutAddedAndRemovedAtWillTime() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("tags", .set(.string), manual: true)])
        let b = try w.object(bag, "b", [("tags", stringSet("a", "b"))])
        let p = try w.object(w.personClass(), "p")
        try w.observe(b, p, "tags", [.old, .new])
        try w.rt.willChangeSet(b, key: "tags", .union, ValueSet([.string("b"), .string("c")]))
        try w.setIvar(b, "tags", stringSet("a", "b", "c"))
        try w.did(b, "tags")
        try w.rt.willChangeSet(b, key: "tags", .minus, ValueSet([.string("a"), .string("z")]))
        try w.setIvar(b, "tags", stringSet("b", "c"))
        try w.did(b, "tags")
        try w.rt.willChangeSet(b, key: "tags", .set, ValueSet([.string("c"), .string("d")]))
        try w.setIvar(b, "tags", stringSet("c", "d"))
        try w.did(b, "tags")
        #expect(
            w.take() == [
                "b.tags → p {kind = 2; new = {(c)}}",
                "b.tags → p {kind = 3; old = {(a)}}",
                "b.tags → p {kind = 4; new = {(d)}; old = {(b)}}",
            ])
    }
}
