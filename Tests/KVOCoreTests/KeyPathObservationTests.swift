import Testing
@testable import KVOCore

/// docs/language.md#key-paths: key paths through relationships, arrays along a path, collection
/// operators as the last component.
@Suite struct KeyPathObservationTests {
    struct Bank {
        let account: ClassInfo
        let person: ClassInfo
        let checking: KVOObject
        let savings: KVOObject
        let person1: KVOObject
        let auditor: KVOObject
    }

    /// conformance c07's objects.
    func bank(_ w: World) throws -> Bank {
        let account = w.makeClass(
            "Account",
            [
                w.stored("balance", .double),
                w.stored("transactions", .array(.any)),
            ])
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let checking = try w.object(account, "checking", [("balance", .double(100))])
        let savings = try w.object(account, "savings", [("balance", .double(500))])
        let p = try w.object(person, "person", [("account", .object(checking))])
        let auditor = try w.object(w.observerClass("Auditor"), "auditor")
        return Bank(
            account: account, person: person, checking: checking, savings: savings, person1: p, auditor: auditor)
    }

    /// conformance c07.
    @Test func observingThroughAToOneFollowsReplacementsAndNilGivesNull() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.old, .new])
        try w.set(b.checking, "balance", .double(150))
        try w.set(b.person1, "account", .object(b.savings))
        try w.set(b.checking, "balance", .double(175))
        try w.set(b.savings, "balance", .double(550))
        try w.set(b.person1, "account", .null)
        try w.set(b.savings, "balance", .double(600))
        try w.setValue(.object(b.savings), b.person1, forKey: "account")
        try w.setValue(.int(700), b.person1, forKeyPath: "account.balance")
        #expect(
            w.take() == [
                "person.account.balance → auditor {kind = 1; new = 150; old = 100}",
                "person.account.balance → auditor {kind = 1; new = 500; old = 150}",
                "person.account.balance → auditor {kind = 1; new = 550; old = 500}",
                "person.account.balance → auditor {kind = 1; new = <null>; old = 550}",
                "person.account.balance → auditor {kind = 1; new = 600; old = <null>}",
                "person.account.balance → auditor {kind = 1; new = 700; old = 600}",
            ])
    }

    @Test func theOldIntermediateStopsNotifyingAndLosesItsForwardingObservance() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        #expect(b.checking.observationInfo?.observances.count == 1)
        try w.set(b.person1, "account", .object(b.savings))
        #expect(b.checking.observationInfo == nil)
        #expect(b.savings.observationInfo?.observances.count == 1)
        _ = w.take()
        try w.set(b.checking, "balance", .double(1))
        #expect(w.take() == [])
    }

    @Test func objectsTakingTurnsAlongThePathAreWatchedOnlyWhileOnIt() throws {
        // A replaced object's forwarding observance is kept as a spare and
        // registered again when the object comes back (B4's swaps): it must
        // then notify again, and only then, with the root's options.
        let w = World()
        let b = try bank(w)
        let third = try w.object(b.account, "third", [("balance", .double(7))])
        try w.observe(b.person1, b.auditor, "account.balance", [.old, .new])
        for round in 0..<3 {
            for account in [b.savings, third, b.checking] {
                try w.set(b.person1, "account", .object(account))
                for other in [b.checking, b.savings, third] where other !== account {
                    #expect(other.observationInfo == nil)
                    try w.set(other, "balance", .double(-1))
                }
                #expect(account.observationInfo?.observances.count == 1)
                #expect(account.observationInfo?.observances.first?.root != nil)
                try w.set(account, "balance", .double(Double(round)))
            }
        }
        let notes = w.take()
        // Each turn: the swap, then the set of the current account's balance.
        #expect(notes.count == 18)
        #expect(
            notes.suffix(2) == [
                "person.account.balance → auditor {kind = 1; new = \"-1\"; old = 2}",
                "person.account.balance → auditor {kind = 1; new = 2; old = \"-1\"}",
            ])
        try w.unobserve(b.person1, b.auditor, "account.balance")
        #expect(b.checking.observationInfo == nil)
        try w.set(b.checking, "balance", .double(5))
        #expect(w.take() == [])
    }

    @Test func theNotificationsObjectIsTheRootAndItsKeyPathTheFullPath() throws {
        let w = World()
        let b = try bank(w)
        let ctx = Context(name: "Audit")
        try w.observe(b.person1, b.auditor, "account.balance", [.new], context: ctx)
        try w.set(b.checking, "balance", .double(1))
        guard case .notify(let object, let keyPath, let observer, _, let context, _)? = w.sink.events.last else {
            Issue.record("expected a notification")
            return
        }
        #expect(object === b.person1)
        #expect(keyPath == "account.balance")
        #expect(observer === b.auditor)
        #expect(context === ctx)
    }

    @Test func initialThroughANilIntermediateIsNull() throws {
        let w = World()
        let b = try bank(w)
        try w.setIvar(b.person1, "account", .null)
        try w.observe(b.person1, b.auditor, "account.balance", [.initial, .new])
        #expect(w.take() == ["person.account.balance → auditor {kind = 1; new = <null>}"])
        try w.set(b.person1, "account", .object(b.checking))
        #expect(w.take() == ["person.account.balance → auditor {kind = 1; new = 100}"])
    }

    @Test func priorThroughAKeyPathCarriesTheOldValueOfThePath() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.prior, .old, .new])
        try w.set(b.person1, "account", .object(b.savings))
        #expect(
            w.take() == [
                "person.account.balance → auditor {kind = 1; notificationIsPrior = 1; old = 100}",
                "person.account.balance → auditor {kind = 1; new = 500; old = 100}",
            ])
    }

    @Test func removeObserverRemovesTheForwardingObservances() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        try w.unobserve(b.person1, b.auditor, "account.balance")
        #expect(b.person1.observationInfo == nil)
        #expect(b.checking.observationInfo == nil)
        try w.set(b.checking, "balance", .double(1))
        try w.set(b.person1, "account", .object(b.savings))
        #expect(w.take() == [])
    }

    @Test func forwardingObservancesCannotBeRemovedByTheObserverDirectly() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        let error = cocoaException { try w.unobserve(b.checking, b.auditor, "balance") }
        #expect(error?.name == "NSRangeException")
        #expect(
            error?.reason
                == "Cannot remove an observer <Auditor auditor> for the key path \"balance\" from <Account checking> because it is not registered as an observer."
        )
    }

    @Test func aThreeComponentPathFollowsReplacementAtEveryLevel() throws {
        let w = World()
        let b = try bank(w)
        let company = w.makeClass("Company", [w.stored("ceo", .object("Person"))])
        let acme = try w.object(company, "acme", [("ceo", .object(b.person1))])
        let bob = try w.object(b.person, "bob", [("account", .object(b.savings))])
        let other = try w.object(b.account, "other", [("balance", .double(7))])
        try w.observe(acme, b.auditor, "ceo.account.balance", [.old, .new])
        try w.set(b.checking, "balance", .double(101))
        try w.set(b.person1, "account", .object(other))
        try w.set(b.checking, "balance", .double(102))
        try w.set(other, "balance", .double(8))
        try w.set(acme, "ceo", .object(bob))
        try w.set(b.person1, "account", .object(b.checking))
        try w.set(other, "balance", .double(9))
        try w.set(b.savings, "balance", .double(501))
        try w.set(bob, "account", .null)
        #expect(
            w.take() == [
                "acme.ceo.account.balance → auditor {kind = 1; new = 101; old = 100}",
                "acme.ceo.account.balance → auditor {kind = 1; new = 7; old = 101}",
                "acme.ceo.account.balance → auditor {kind = 1; new = 8; old = 7}",
                "acme.ceo.account.balance → auditor {kind = 1; new = 500; old = 8}",
                "acme.ceo.account.balance → auditor {kind = 1; new = 501; old = 500}",
                "acme.ceo.account.balance → auditor {kind = 1; new = <null>; old = 501}",
            ])
        #expect(b.person1.observationInfo == nil)
        #expect(other.observationInfo == nil)
        #expect(b.savings.observationInfo == nil)
        #expect(bob.observationInfo?.observances.count == 1)
    }

    @Test func anObservanceReachedTwiceThroughAnObjectCycleIsNotifiedOncePerChange() throws {
        let w = World()
        let node = w.makeClass("Node", [w.stored("next", .object("Node"))])
        let n = try w.object(node, "n")
        let m = try w.object(node, "m")
        try w.setIvar(n, "next", .object(n))
        let watcher = try w.object(w.observerClass(), "watcher")
        try w.observe(n, watcher, "next.next", [.old, .new])
        // n observes "next" for the root and, as n.next, for the forwarding observance.
        #expect(n.observationInfo?.observances.count == 2)
        try w.set(n, "next", .object(m))
        #expect(w.take() == ["n.next.next → watcher {kind = 1; new = <null>; old = <Node: n>}"])
        #expect(n.observationInfo?.observances.count == 1)
        #expect(m.observationInfo?.observances.count == 1)
        try w.set(m, "next", .object(n))
        #expect(w.take() == ["n.next.next → watcher {kind = 1; new = <Node: n>; old = <null>}"])
    }

    @Test func toManyLastComponentForwardsTheMutationDetail() throws {
        let w = World()
        let b = try bank(w)
        let t1 = try w.object(w.makeClass("Transaction"), "t1")
        try w.observe(b.person1, b.auditor, "account.transactions", [.old, .new])
        try w.rt.mutateArray(b.checking, keyPath: "transactions", .insert([.object(t1)], at: [0]))
        try w.rt.mutateArray(b.person1, keyPath: "account.transactions", .remove(at: [0]))
        try w.set(b.checking, "transactions", .array([.object(t1)]))
        #expect(
            w.take() == [
                "person.account.transactions → auditor {indexes = (0); kind = 2; new = (<Transaction: t1>)}",
                "person.account.transactions → auditor {indexes = (0); kind = 3; old = (<Transaction: t1>)}",
                "person.account.transactions → auditor {kind = 1; new = (<Transaction: t1>); old = ()}",
            ])
    }

    @Test func aCountThroughAToOneIsASettingForEveryMutation() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.transactions.@count", [.initial, .old, .new])
        try w.rt.mutateArray(b.checking, keyPath: "transactions", .insert([.int(1), .int(2)], at: [0, 1]))
        try w.set(b.person1, "account", .object(b.savings))
        try w.rt.mutateArray(b.checking, keyPath: "transactions", .remove(at: [0]))
        try w.rt.mutateArray(b.savings, keyPath: "transactions", .insert([.int(3)], at: [0]))
        #expect(
            w.take() == [
                "person.account.transactions.@count → auditor {kind = 1; new = 0}",
                "person.account.transactions.@count → auditor {kind = 1; new = 2; old = 0}",
                "person.account.transactions.@count → auditor {kind = 1; new = 0; old = 2}",
                "person.account.transactions.@count → auditor {kind = 1; new = 1; old = 0}",
            ])
    }

    @Test func anUnorderedLastComponentForwardsTheSetMutationDetail() throws {
        let w = World()
        let bag = w.makeClass("Bag", [w.stored("tags", .set(.string))])
        let holder = w.makeClass("Holder", [w.stored("bag", .object("Bag"))])
        let bg = try w.object(bag, "bg", [("tags", stringSet("a"))])
        let h = try w.object(holder, "h", [("bag", .object(bg))])
        let watcher = try w.object(w.observerClass(), "watcher")
        try w.observe(h, watcher, "bag.tags", [.old, .new])
        try w.rt.mutateSet(h, keyPath: "bag.tags", .set, ValueSet([.string("b")]))
        #expect(w.take() == ["h.bag.tags → watcher {kind = 4; new = {(b)}; old = {(a)}}"])
    }

    @Test func aKeyPathWhoseFirstComponentIsADependentKeyFollowsItsDependencies() throws {
        let w = World()
        let person = w.makeClass(
            "Person",
            [
                w.stored("name", .string),
                w.stored("partner", .object("Person")),
                w.computed("owner", .object("Person"), affectedBy: ["partner"]) { o in World.ivar(o, "partner") },
            ])
        let x = try w.object(person, "x")
        let y = try w.object(person, "y", [("name", .string("Yan"))])
        let watcher = try w.object(w.observerClass(), "watcher")
        try w.observe(x, watcher, "owner.name", [.old, .new])
        try w.set(x, "partner", .object(y))
        try w.set(y, "name", .string("Yu"))
        try w.set(x, "partner", .null)
        try w.set(y, "name", .string("Ignored"))
        #expect(
            w.take() == [
                "x.owner.name → watcher {kind = 1; new = Yan; old = <null>}",
                "x.owner.name → watcher {kind = 1; new = Yu; old = Yan}",
                "x.owner.name → watcher {kind = 1; new = <null>; old = Yu}",
            ])
    }

    @Test func twoIdenticalKeyPathRegistrationsOneRemovedMidChangeBothAreDelivered() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        try w.will(b.checking, "balance")
        try w.unobserve(b.person1, b.auditor, "account.balance")
        try w.setIvar(b.checking, "balance", .double(1))
        try w.did(b.checking, "balance")
        #expect(
            w.take() == [
                "person.account.balance → auditor {kind = 1; new = 1}",
                "person.account.balance → auditor {kind = 1; new = 1}",
            ])
    }

    @Test func aKeyPathObserverRemovedBetweenWillAndDidGetsNothing() throws {
        let w = World()
        let b = try bank(w)
        try w.observe(b.person1, b.auditor, "account.balance", [.new])
        try w.will(b.checking, "balance")
        try w.unobserve(b.person1, b.auditor, "account.balance")
        try w.did(b.checking, "balance")
        #expect(w.take() == [])
    }

    // MARK: Arrays along the path

    func department(_ w: World) throws -> (dept: KVOObject, report: KVOObject, employee: ClassInfo) {
        let employee = w.makeClass("Employee", [w.stored("salary", .double)])
        let department = w.makeClass(
            "Department",
            [
                w.stored("employees", .array(.object("Employee"))),
                w.stored("tags", .set(.string)),
                w.stored("boss", .object("Employee")),
            ])
        let e = try w.object(employee, nil, [("salary", .double(10))])
        let dept = try w.object(department, "dept", [("employees", .array([.object(e)]))])
        let report = try w.object(w.observerClass("Report"), "report")
        return (dept, report, employee)
    }

    /// conformance c16.
    @Test func observingThroughAnArrayRaisesInvalidArgumentWithAppleText() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        let error = cocoaException { try w.observe(dept, report, "employees.salary", [.new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: salary"
        )
        #expect(dept.observationInfo == nil)
        #expect(w.sink.events.isEmpty)
    }

    @Test func theKeyPathInTheReasonIsTheRestOfThePathAfterTheArray() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        let error = cocoaException { try w.observe(dept, report, "employees.boss.salary", [.new]) }
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: boss.salary"
        )
    }

    @Test func observingThroughASetRaisesToo() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        let error = cocoaException { try w.observe(dept, report, "tags.length", [.new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSSetM dept.tags> addObserver:forKeyPath:options:context:] is not supported. Key path: length")
    }

    /// docs/language.md#object-names: an array reached through a property is named after where it
    /// lives — the object that holds it (`sales.employees`), not the path used to
    /// reach it.
    @Test func anArrayReachedThroughAToOneIsNamedAfterTheObjectHoldingIt() throws {
        let w = World()
        let (sales, report, _) = try department(w)
        let person = w.makeClass("Manager", [w.stored("department", .object("Department"))])
        let manager = try w.object(person, "manager", [("department", .object(sales))])
        let error = cocoaException { try w.observe(manager, report, "department.employees.salary", [.new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: salary"
        )
        #expect(manager.observationInfo == nil)
        #expect(sales.observationInfo == nil)
    }

    @Test func addObserverOnAnArrayValueRaisesInvalidArgument() throws {
        let w = World()
        let (_, report, _) = try department(w)
        let error = cocoaException {
            try w.rt.addObserver(report, to: .array([.int(1)]), keyPath: "salary", options: [.new], context: nil)
        }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(error?.reason.hasPrefix("[<__NSArrayM ") == true)
        #expect(
            error?.reason.hasSuffix("> addObserver:forKeyPath:options:context:] is not supported. Key path: salary")
                == true)
    }

    // MARK: Collection operators as the last component

    /// conformance c16.
    @Test func countAtTheEndTurnsToManyChangesIntoSettings() throws {
        let w = World()
        let (dept, report, employee) = try department(w)
        try w.observe(dept, report, "employees.@count", [.old, .new])
        let e2 = try w.object(employee, nil, [("salary", .double(20))])
        try w.rt.mutateArray(dept, keyPath: "employees", .insert([.object(e2)], at: [1]))
        try w.rt.mutateArray(dept, keyPath: "employees", .remove(at: [0]))
        try w.rt.mutateArray(dept, keyPath: "employees", .replace(at: [0], with: [.object(e2)]))
        try w.set(dept, "employees", .array([]))
        #expect(
            w.take() == [
                "dept.employees.@count → report {kind = 1; new = 2; old = 1}",
                "dept.employees.@count → report {kind = 1; new = 1; old = 2}",
                "dept.employees.@count → report {kind = 1; new = 1; old = 1}",
                "dept.employees.@count → report {kind = 1; new = 0; old = 1}",
            ])
    }

    @Test func countAtTheEndWithPriorIsASettingPrior() throws {
        let w = World()
        let (dept, report, employee) = try department(w)
        try w.observe(dept, report, "employees.@count", [.prior, .old, .new])
        let e2 = try w.object(employee)
        try w.rt.mutateArray(dept, keyPath: "employees", .insert([.object(e2)], at: [0]))
        #expect(
            w.take() == [
                "dept.employees.@count → report {kind = 1; notificationIsPrior = 1; old = 1}",
                "dept.employees.@count → report {kind = 1; new = 2; old = 1}",
            ])
    }

    /// An operator followed by a path is forwarded to the array like any
    /// other rest of a path, and the array raises (docs/language.md#key-paths).
    @Test func sumFollowedByAPathIsForwardedToTheArrayWhichRaises() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        let error = cocoaException { try w.observe(dept, report, "employees.@sum.salary", [.old, .new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: @sum.salary"
        )
        #expect(dept.observationInfo == nil)
        #expect(w.take() == [])
    }

    /// When the middle object is replaced, the forwarding observances move to
    /// the new object in the did phase's order (newest root first), so the new
    /// object notifies the two observers in the opposite order (docs/language.md#key-paths).
    @Test func replacingTheMiddleObjectReversesTheOrderOfItsForwards() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let first = try w.object(account, "first")
        let second = try w.object(account, "second")
        let p = try w.object(person, "person", [("account", .object(first))])
        let watcher = w.observerClass()
        let w1 = try w.object(watcher, "w1")
        let w2 = try w.object(watcher, "w2")
        try w.observe(p, w1, "account.balance", [.new])
        try w.observe(p, w2, "account.balance", [.new])
        try w.set(first, "balance", .double(1))
        try w.set(p, "account", .object(second))
        try w.set(second, "balance", .double(2))
        try w.set(p, "account", .object(first))
        try w.set(first, "balance", .double(3))
        #expect(
            w.take() == [
                "person.account.balance → w2 {kind = 1; new = 1}",
                "person.account.balance → w1 {kind = 1; new = 1}",
                "person.account.balance → w2 {kind = 1; new = 0}",
                "person.account.balance → w1 {kind = 1; new = 0}",
                "person.account.balance → w1 {kind = 1; new = 2}",
                "person.account.balance → w2 {kind = 1; new = 2}",
                "person.account.balance → w2 {kind = 1; new = 1}",
                "person.account.balance → w1 {kind = 1; new = 1}",
                "person.account.balance → w1 {kind = 1; new = 3}",
                "person.account.balance → w2 {kind = 1; new = 3}",
            ])
        #expect(second.observanceSnapshots.map(\.observer) == [])
        #expect(first.observanceSnapshots.map(\.observer) == ["person[1]", "person[0]"])
    }

    /// `removeObserver` sent to an array or a set raises (docs/language.md#exceptions).
    @Test func removeObserverFromACollectionRaises() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        let employees = try w.get(dept, "employees")
        let owner = CollectionOwner(object: dept, key: "employees")
        let plain = cocoaException {
            try w.rt.removeObserver(report, from: employees, keyPath: "count", context: .any, owner: owner)
        }
        #expect(plain?.name == "NSInvalidArgumentException")
        #expect(
            plain?.reason
                == "[<__NSArrayM dept.employees> removeObserver:forKeyPath:] is not supported. Key path: count")
        let withContext = cocoaException {
            try w.rt.removeObserver(report, from: employees, keyPath: "count", context: .exactly(nil), owner: owner)
        }
        #expect(
            withContext?.reason
                == "[<__NSArrayM dept.employees> removeObserver:forKeyPath:context:] is not supported. Key path: count")
        let tags = try w.get(dept, "tags")
        let fromSet = cocoaException {
            try w.rt.removeObserver(
                report, from: tags, keyPath: "count", context: .any, owner: CollectionOwner(object: dept, key: "tags"))
        }
        #expect(
            fromSet?.reason == "[<__NSSetM dept.tags> removeObserver:forKeyPath:] is not supported. Key path: count")
    }

    @Test func countOfASetAtTheEnd() throws {
        let w = World()
        let (dept, report, _) = try department(w)
        try w.observe(dept, report, "tags.@count", [.old, .new])
        try w.rt.mutateSet(dept, keyPath: "tags", .union, ValueSet([.string("a"), .string("b")]))
        #expect(w.take() == ["dept.tags.@count → report {kind = 1; new = 2; old = 0}"])
    }
}
