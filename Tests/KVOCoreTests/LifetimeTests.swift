import Testing
@testable import KVOCore

/// docs/language.md#lifetime: release, zombies, silent unregistration.
@Suite struct LifetimeTests {
    @Test func releasingAnObservedObjectUnregistersItsObserversSilently() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        let observance = try #require(acct.observationInfo?.observances.first)
        try w.rt.release(acct)
        #expect(acct.isReleased)
        #expect(acct.observationInfo == nil)
        #expect(!observance.isRegistered)
        #expect(w.sink.events.isEmpty)
    }

    @Test func releasingTheRootOfAKeyPathObservationRemovesItsForwards() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let acct = try w.object(account, "acct")
        let p = try w.object(person, "p", [("account", .object(acct))])
        let auditor = try w.object(w.observerClass("Auditor"), "auditor")
        try w.observe(p, auditor, "account.balance", [.new])
        #expect(acct.observationInfo != nil)
        try w.rt.release(p)
        #expect(acct.observationInfo == nil)
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == [])
    }

    @Test func releasingAnIntermediateObjectDropsOnlyItsForwardingObservance() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let acct = try w.object(account, "acct", [("balance", .double(1))])
        let other = try w.object(account, "other", [("balance", .double(2))])
        let p = try w.object(person, "p", [("account", .object(acct))])
        let auditor = try w.object(w.observerClass("Auditor"), "auditor")
        try w.observe(p, auditor, "account.balance", [.new])
        let root = try #require(p.observationInfo?.observances.first)
        try w.rt.release(acct)
        #expect(root.isRegistered)
        #expect(root.forwards.isEmpty)
        #expect(p.observationInfo?.observances.count == 1)
        // The person points at a zombie now; pointing it elsewhere re-attaches…
        try w.setIvar(p, "account", .object(other))
        try w.will(p, "account")
        try w.did(p, "account")
        _ = w.take()
        // …and the new account notifies.
        try w.set(other, "balance", .double(3))
        #expect(w.take() == ["p.account.balance → auditor {kind = 1; new = 3}"])
    }

    @Test func notifyingAReleasedObserverIsARuntimeErrorAndDeliversNothing() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new])
        try w.rt.release(alice)
        let failure = runtimeFailure { try w.set(acct, "balance", .double(1)) }
        #expect(
            failure?.message
                == "*** -[Person observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance <Person: alice>"
        )
        #expect(w.take() == [])
        #expect(w.rt.notificationCount == 0)
    }

    @Test func anInitialNotificationToAReleasedObserverIsRefusedAsAUseOfIt() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.rt.release(alice)
        let failure = runtimeFailure { try w.observe(acct, alice, "balance", [.initial]) }
        #expect(failure?.message.contains("<Person: alice>") == true)
        #expect(acct.observationInfo == nil)
        #expect(w.take() == [])
    }

    @Test func anObserverMayReleaseItselfInItsHandler() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let mayfly = w.observerClass("Mayfly")
        mayfly.ownHooks.observeValue = { observer, _, _, _, _ in
            if !observer.isReleased { try w.rt.release(observer) }
        }
        let m = try w.object(mayfly, "m")
        try w.observe(acct, m, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → m {kind = 1; new = 1}"])
        let failure = runtimeFailure { try w.set(acct, "balance", .double(2)) }
        #expect(
            failure?.message
                == "*** -[Mayfly observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance <Mayfly: m>"
        )
        #expect(w.take() == [])
    }

    @Test func anObservedObjectMayBeReleasedByAHandler() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let killer = w.observerClass("Killer")
        killer.ownHooks.observeValue = { _, _, object, _, _ in try w.rt.release(object) }
        let k = try w.object(killer, "k")
        try w.observe(acct, alice, "balance", [.new])
        try w.observe(acct, k, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        // Alice's observance was unregistered by the release before her turn.
        #expect(w.take() == ["acct.balance → k {kind = 1; new = 1}"])
    }

    @Test func releasingTwiceIsARuntimeError() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        try w.rt.release(acct)
        let failure = runtimeFailure { try w.rt.release(acct) }
        #expect(failure?.message.contains("<Account: acct>") == true)
    }

    @Test func anyOtherUseOfAReleasedObjectIsARuntimeErrorNamingIt() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.rt.release(acct)
        let uses: [(String, () throws -> Void)] = [
            ("get", { _ = try w.get(acct, "balance") }),
            ("set", { try w.set(acct, "balance", .double(1)) }),
            ("setIvar", { try w.setIvar(acct, "balance", .double(1)) }),
            ("valueForKey", { _ = try w.value(acct, forKey: "balance") }),
            ("setValueForKey", { try w.setValue(.int(1), acct, forKey: "balance") }),
            ("addObserver", { try w.observe(acct, alice, "balance") }),
            ("addObserver of a released observer", { try w.observe(alice, acct, "name") }),
            ("removeObserver", { try w.unobserve(acct, alice, "balance") }),
            ("willChangeValue", { try w.will(acct, "balance") }),
            ("didChangeValue", { try w.did(acct, "balance") }),
        ]
        for (use, body) in uses {
            let failure = runtimeFailure(body)
            #expect(failure?.message.contains("<Account: acct>") == true, "\(use)")
        }
    }
}
