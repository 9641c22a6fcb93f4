import Testing
@testable import KVOCore

/// The change dictionary (docs/language.md#change-dictionary) and the options .new .old .initial
/// .prior (docs/language.md#options).
@Suite struct ChangeDictionaryTests {
    // MARK: Change.description

    @Test func descriptionPrintsPresentKeysInAppleKeyOrder() {
        let change = Change(
            kind: .replacement, indexes: [1, 3], new: strings("x", "y"),
            old: strings("a", "b"), isPrior: true)
        #expect(
            change.description == "{indexes = (1, 3); kind = 4; new = (x, y); notificationIsPrior = 1; old = (a, b)}")
        #expect(Change(kind: .setting).description == "{kind = 1}")
        #expect(
            Change(kind: .insertion, indexes: [0], new: strings("a")).description
                == "{indexes = (0); kind = 2; new = (a)}")
        #expect(Change(kind: .removal, old: .null).description == "{kind = 3; old = <null>}")
        #expect(Change(kind: .setting, isPrior: true).description == "{kind = 1; notificationIsPrior = 1}")
    }

    @Test func descriptionDescribesValuesAsCollectionsDo() {
        #expect(
            Change(kind: .setting, new: .string("John Appleseed"), old: .string("Alice")).description
                == "{kind = 1; new = \"John Appleseed\"; old = Alice}")
        #expect(
            Change(kind: .setting, new: .double(0.05), old: .double(200)).description
                == "{kind = 1; new = \"0.05\"; old = 200}")
        #expect(
            Change(kind: .setting, new: .bool(true), old: .bool(false)).description
                == "{kind = 1; new = 1; old = 0}")
        #expect(
            Change(kind: .setting, new: .array([]), old: .null).description
                == "{kind = 1; new = (); old = <null>}")
        #expect(
            Change(kind: .insertion, new: stringSet("b", "a")).description
                == "{kind = 2; new = {(a, b)}}")
    }

    // MARK: .new / .old

    @Test(
        arguments: [
            (ObservingOptions(), "{kind = 1}"),
            (ObservingOptions.new, "{kind = 1; new = 200}"),
            (ObservingOptions.old, "{kind = 1; old = 100}"),
            ([ObservingOptions.new, .old], "{kind = 1; new = 200; old = 100}"),
        ] as [(ObservingOptions, String)])
    func newAndOldArePresentOnlyWhenAsked(options: ObservingOptions, expected: String) throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", options)
        try w.set(acct, "balance", .double(200))
        #expect(w.take() == ["acct.balance → alice \(expected)"])
    }

    @Test func nilValuesAreNull() throws {
        let w = World()
        let person = w.personClass()
        let account = w.makeClass("Account", [w.stored("owner", .object("Person")), w.stored("title", .string)])
        let acct = try w.object(account, "acct")
        let alice = try w.object(person, "alice")
        try w.observe(acct, alice, "owner", [.new, .old])
        try w.observe(acct, alice, "title", [.new, .old])
        try w.set(acct, "owner", .object(alice))
        try w.set(acct, "owner", .null)
        try w.setValue(.null, acct, forKey: "title")
        #expect(
            w.take() == [
                "acct.owner → alice {kind = 1; new = <Person: alice>; old = <null>}",
                "acct.owner → alice {kind = 1; new = <null>; old = <Person: alice>}",
                "acct.title → alice {kind = 1; new = <null>; old = \"\"}",
            ])
    }

    @Test func toManySettingCarriesTheWholeArrays() throws {
        let w = World()
        let list = w.makeClass("List", [w.stored("items", .array(.int))])
        let l = try w.object(list, "l", [("items", .array([.int(1)]))])
        let p = try w.object(w.personClass(), "p")
        try w.observe(l, p, "items", [.new, .old])
        try w.set(l, "items", .array([.int(1), .int(2)]))
        #expect(w.take() == ["l.items → p {kind = 1; new = (1, 2); old = (1)}"])
    }

    // MARK: .initial

    /// conformance c02.
    @Test func initialFiresInsideAddObserverNeverWithOld() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        try w.setIvar(acct, "balance", .double(10))
        let person = w.personClass()
        let a = try w.object(person, "a"), b = try w.object(person, "b"), c = try w.object(person, "c")
        try w.observe(acct, a, "balance", [.initial])
        #expect(w.take() == ["acct.balance → a {kind = 1}"])
        try w.observe(acct, b, "balance", [.initial, .new])
        #expect(w.take() == ["acct.balance → b {kind = 1; new = 10}"])
        try w.observe(acct, c, "balance", [.initial, .old, .new, .prior])
        #expect(w.take() == ["acct.balance → c {kind = 1; new = 10}"])
        try w.set(acct, "balance", .double(20))
        #expect(
            w.take() == [
                "acct.balance → c {kind = 1; notificationIsPrior = 1; old = 10}",
                "acct.balance → c {kind = 1; new = 20; old = 10}",
                "acct.balance → b {kind = 1; new = 20}",
                "acct.balance → a {kind = 1}",
            ])
    }

    @Test func initialIsDeliveredBeforeTheRegistrationTakesEffect() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let first = try w.object(w.personClass(), "first")
        let probeClass = w.observerClass("Probe")
        var registeredDuringInitial: [Int] = []
        probeClass.ownHooks.observeValue = { _, _, object, change, _ in
            registeredDuringInitial.append(object.observationInfo?.observances.count ?? 0)
            if change.new == .double(100) {
                // A change made while the initial notification is handled does not
                // reach the observer being registered.
                try w.set(object, "balance", .double(1))
            }
        }
        let probe = try w.object(probeClass, "probe")
        try w.observe(acct, first, "interestRate", [])
        try w.observe(acct, probe, "balance", [.initial, .new])
        #expect(registeredDuringInitial == [1])
        #expect(w.take() == ["acct.balance → probe {kind = 1; new = 100}"])
        #expect(acct.observationInfo?.observances.count == 2)
        #expect(try w.get(acct, "balance") == .double(1))
    }

    @Test func initialNotificationOfAToManyKeyIsASettingWithTheWholeValue() throws {
        let w = World()
        let list = w.makeClass("List", [w.stored("items", .array(.string))])
        let l = try w.object(list, "l", [("items", strings("a", "b"))])
        let p = try w.object(w.personClass(), "p")
        try w.observe(l, p, "items", [.initial, .new, .old])
        #expect(w.take() == ["l.items → p {kind = 1; new = (a, b)}"])
    }

    @Test func initialWithAContext() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.initial, .new], context: Context(name: "Ctx"))
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 100} context: Ctx"])
    }

    // MARK: .prior

    @Test func priorWithoutOldCarriesOnlyKindAndTheFlag() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.prior])
        try w.set(acct, "balance", .double(5))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; notificationIsPrior = 1}",
                "acct.balance → alice {kind = 1}",
            ])
    }

    @Test func priorWithNewAndOldNeverCarriesNew() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.prior, .new, .old])
        try w.set(acct, "balance", .double(5))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; notificationIsPrior = 1; old = 100}",
                "acct.balance → alice {kind = 1; new = 5; old = 100}",
            ])
        #expect(w.changes.first?.isPrior == true)
        #expect(w.changes.first?.new == nil)
        #expect(w.changes.last?.isPrior == false)
    }

    @Test func priorIsDeliveredAtWillChangeTime() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.prior, .old])
        try w.will(acct, "balance")
        #expect(w.take() == ["acct.balance → alice {kind = 1; notificationIsPrior = 1; old = 100}"])
        try w.setIvar(acct, "balance", .double(3))
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → alice {kind = 1; old = 100}"])
    }

    @Test func handlersSeeTheSameChangeThatIsReported() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let recorderClass = w.observerClass("Recorder")
        var seen: [Change] = []
        recorderClass.ownHooks.observeValue = { _, _, _, change, _ in seen.append(change) }
        let recorder = try w.object(recorderClass, "recorder")
        try w.observe(acct, recorder, "balance", [.prior, .new, .old])
        try w.set(acct, "balance", .double(5))
        #expect(seen == w.changes)
        #expect(seen.count == 2)
        #expect(try w.rt.value(of: .change(seen[1]), forKey: "kind") == .int(1))
        #expect(try w.rt.value(of: .change(seen[1]), forKey: "new") == .double(5))
        #expect(try w.rt.value(of: .change(seen[1]), forKey: "old") == .double(100))
        #expect(try w.rt.value(of: .change(seen[1]), forKey: "indexes") == .null)
        #expect(try w.rt.value(of: .change(seen[0]), forKey: "notificationIsPrior") == .bool(true))
        #expect(try w.rt.value(of: .change(seen[1]), forKey: "notificationIsPrior") == .null)
    }
}
