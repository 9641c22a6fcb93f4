import Testing
import _KVOTestTraits
@testable import KVOCore

/// Synchronous, nested delivery (docs/language.md#order), handlers (docs/language.md#handlers)
/// and the maximum depth (docs/language.md#diagnostics).
@Suite struct HandlerTests {
    @Test func aHandlerRunsOneLevelDeeperWithTheNotificationsArguments() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let person = w.observerClass("Person")
        let mine = Context(name: "Mine")
        var calls: [(KVOObject, String, KVOObject, Change, Context?)] = []
        person.ownHooks.observeValue = { observer, keyPath, object, change, context in
            calls.append((observer, keyPath, object, change, context))
            w.print("handled \(keyPath) at \(w.rt.depth)")
        }
        let alice = try w.object(person, "alice")
        try w.observe(acct, alice, "balance", [.new], context: mine)
        try w.set(acct, "balance", .double(1))
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 1} context: Mine",
                "  print: handled balance at 1",
            ])
        #expect(calls.count == 1)
        #expect(calls.first?.0 === alice)
        #expect(calls.first?.1 == "balance")
        #expect(calls.first?.2 === acct)
        #expect(calls.first?.3 == Change(kind: .setting, new: .double(1)))
        #expect(calls.first?.4 === mine)
        #expect(w.rt.depth == 0)
    }

    @Test func aSuperclassHandlerIsInherited() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let base = w.observerClass("Base")
        base.ownHooks.observeValue = { observer, keyPath, _, _, _ in w.print("\(observer.name) saw \(keyPath)") }
        let sub = w.makeClass("Sub", superclass: base)
        let s = try w.object(sub, "s")
        try w.observe(acct, s, "balance")
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → s {kind = 1}", "  print: s saw balance"])
    }

    @Test func aSubclassHandlerOverridesTheSuperclasses() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let base = w.observerClass("Base")
        base.ownHooks.observeValue = { _, _, _, _, _ in w.print("base") }
        let sub = w.makeClass("Sub", superclass: base)
        sub.ownHooks.observeValue = { _, _, _, _, _ in w.print("sub") }
        try w.observe(acct, try w.object(sub, "s"), "balance")
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → s {kind = 1}", "  print: sub"])
    }

    /// conformance c14.
    @Test func nestedChangesInAHandlerAreDeliveredAtOnceAndLaterObserversSeeTheirResult() throws {
        let w = World()
        let counter = try w.object(w.makeClass("Counter", [w.stored("value", .int)]), "counter")
        let clampClass = w.observerClass("Clamp")
        clampClass.ownHooks.observeValue = { _, _, object, _, _ in
            if let value = try w.get(object, "value").number, value > 10 {
                try w.set(object, "value", .int(10))
            }
        }
        let watcher = try w.object(w.observerClass(), "watcher")
        let clamp = try w.object(clampClass, "clamp")
        try w.observe(counter, watcher, "value", [.new])
        try w.observe(counter, clamp, "value", [.new])
        try w.set(counter, "value", .int(50))
        #expect(
            w.take() == [
                "counter.value → clamp {kind = 1; new = 50}",
                "  counter.value → clamp {kind = 1; new = 10}",
                "  counter.value → watcher {kind = 1; new = 10}",
                "counter.value → watcher {kind = 1; new = 10}",
            ])
        #expect(try w.get(counter, "value") == .int(10))
        #expect(w.notifyDepths == [0, 1, 1, 0])
    }

    @Test func aChangeInAPriorHandlerIsDeliveredAtOnceAndTheOuterOldWasReadBefore() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let fixer = w.observerClass("Fixer")
        fixer.ownHooks.observeValue = { _, _, object, change, _ in
            if change.isPrior { try w.set(object, "interestRate", .double(0.1)) }
        }
        let f = try w.object(fixer, "f")
        let watcher = try w.object(w.observerClass(), "watcher")
        try w.observe(acct, f, "balance", [.prior])
        try w.observe(acct, watcher, "interestRate", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(
            w.take() == [
                "acct.balance → f {kind = 1; notificationIsPrior = 1}",
                "  acct.interestRate → watcher {kind = 1; new = \"0.1\"}",
                "acct.balance → f {kind = 1}",
            ])
    }

    @Test func aHandlerCausingChangesOnAnotherObjectNestsDeeper() throws {
        let w = World()
        let account = w.accountClass()
        let a = try w.object(account, "a")
        let b = try w.object(account, "b")
        let c = try w.object(account, "c")
        let relay = w.observerClass("Relay")
        relay.ownHooks.observeValue = { _, _, object, change, _ in
            let next = object === a ? b : c
            if object !== c { try w.set(next, "balance", change.new ?? .null) }
        }
        let r = try w.object(relay, "r")
        try w.observe(a, r, "balance", [.new])
        try w.observe(b, r, "balance", [.new])
        try w.observe(c, r, "balance", [.new])
        try w.set(a, "balance", .double(3))
        #expect(
            w.take() == [
                "a.balance → r {kind = 1; new = 3}",
                "  b.balance → r {kind = 1; new = 3}",
                "    c.balance → r {kind = 1; new = 3}",
            ])
    }

    @Test func anObserverRemovingItselfInItsHandlerGetsNoMoreNotifications() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let quitter = w.observerClass("Quitter")
        quitter.ownHooks.observeValue = { observer, keyPath, object, _, _ in
            try w.unobserve(object, observer, keyPath)
        }
        let q = try w.object(quitter, "q")
        try w.observe(acct, q, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        try w.set(acct, "balance", .double(2))
        #expect(w.take() == ["acct.balance → q {kind = 1; new = 1}"])
        #expect(acct.observationInfo == nil)
    }

    @Test func anObserverRemovedByAnEarlierHandlerOfTheSameChangeGetsNothing() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let remover = w.observerClass("Remover")
        remover.ownHooks.observeValue = { _, _, object, _, _ in
            try w.unobserve(object, alice, "balance")
        }
        let r = try w.object(remover, "r")
        try w.observe(acct, alice, "balance", [.new])
        try w.observe(acct, r, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → r {kind = 1; new = 1}"])
    }

    @Test func anObserverAddedByAHandlerDuringTheDidPhaseGetsNothingForThatChange() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let recruiter = w.observerClass("Recruiter")
        var added = false
        recruiter.ownHooks.observeValue = { _, _, object, _, _ in
            if !added {
                added = true
                try w.observe(object, alice, "balance", [.new])
            }
        }
        let r = try w.object(recruiter, "r")
        try w.observe(acct, r, "balance", [.new])
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → r {kind = 1; new = 1}"])
        try w.set(acct, "balance", .double(2))
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 2}", "acct.balance → r {kind = 1; new = 2}"])
    }

    /// conformance c11's scenario: the guide's Department/totalSalary pattern — a
    /// handler makes a manual change (depth 1) of another object's key. (c11's
    /// expected file says 550 after `bob.salary = 250`; 100 + 250 is 350.)
    @Test func theTotalSalaryPatternNotifiesFromInsideAHandler() throws {
        let w = World()
        let ctx = Context(name: "TotalSalaryContext")
        let employee = w.makeClass("Employee", [w.stored("salary", .double)])
        let department = w.makeClass(
            "Department",
            [
                w.stored("employees", .array(.object("Employee"))),
                w.stored("totalSalary", .double, manual: true),
            ])
        func updateTotalSalary(_ dept: KVOObject) throws {
            let total = try w.value(dept, forKeyPath: "employees.@sum.salary")
            if total != World.ivar(dept, "totalSalary") {
                try w.will(dept, "totalSalary")
                try w.setIvar(dept, "totalSalary", total)
                try w.did(dept, "totalSalary")
            }
        }
        department.ownHooks.observeValue = { observer, keyPath, object, change, context in
            if context === ctx {
                try updateTotalSalary(observer)
            } else {
                throw w.rt.unhandledNotification(
                    observer: observer, keyPath: keyPath, object: object,
                    change: change, context: context)
            }
        }
        func hire(_ dept: KVOObject, _ e: KVOObject) throws {
            guard case .array(let staff) = World.ivar(dept, "employees") else { return }
            try w.rt.mutateArray(dept, keyPath: "employees", .insert([.object(e)], at: [staff.count]))
            try w.observe(e, dept, "salary", [], context: ctx)
            try updateTotalSalary(dept)
        }
        let dept = try w.object(department, "dept")
        let report = try w.object(w.observerClass("Report"), "report")
        try w.observe(dept, report, "totalSalary", [.new])
        let ann = try w.object(employee, "ann", [("salary", .double(100))])
        let bob = try w.object(employee, "bob", [("salary", .double(200))])
        try hire(dept, ann)
        try hire(dept, bob)
        try w.set(bob, "salary", .double(250))
        try w.set(ann, "salary", .double(100))
        #expect(
            w.take() == [
                "dept.totalSalary → report {kind = 1; new = 100}",
                "dept.totalSalary → report {kind = 1; new = 300}",
                "bob.salary → dept {kind = 1} context: TotalSalaryContext",
                "  dept.totalSalary → report {kind = 1; new = 350}",
                "ann.salary → dept {kind = 1} context: TotalSalaryContext",
            ])
        #expect(try w.get(dept, "totalSalary") == .double(350))
    }

    // MARK: Exceptions from handlers

    /// conformance c13: NSObject's observeValue raises for an unconsumed notification.
    @Test func anUnhandledNotificationRaisesInternalInconsistencyWithAppleText() throws {
        let w = World()
        let (acct, _) = try w.acctAndAlice()
        let mine = Context(name: "Mine")
        let person = w.observerClass("Person")
        person.ownHooks.observeValue = { observer, keyPath, object, change, context in
            if context === mine {
                w.print("handled " + keyPath)
            } else {
                throw w.rt.unhandledNotification(
                    observer: observer, keyPath: keyPath, object: object,
                    change: change, context: context)
            }
        }
        let alice = try w.object(person, "alice")
        try w.observe(acct, alice, "balance", [.new], context: mine)
        try w.set(acct, "balance", .double(1))
        try w.unobserve(acct, alice, "balance")
        try w.observe(acct, alice, "balance", [.new])
        let error = cocoaException { try w.set(acct, "balance", .double(2)) }
        #expect(
            w.take() == [
                "acct.balance → alice {kind = 1; new = 1} context: Mine",
                "  print: handled balance",
                "acct.balance → alice {kind = 1; new = 2}",
            ])
        #expect(error?.name == "NSInternalInconsistencyException")
        #expect(
            error?.reason
                == "<Person: alice>: An -observeValueForKeyPath:ofObject:change:context: message was received but not handled.\nKey path: balance\nObserved object: <Account: acct>\nChange: {\n    kind = 1;\n    new = 2;\n}\nContext: 0x0"
        )
        #expect(error?.depth == 1)
        #expect(w.rt.depth == 0)
    }

    @Test func anExceptionFromAnAfterChangeHandlerLeavesNoPendingChange() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let thrower = w.observerClass("Thrower")
        var armed = true
        thrower.ownHooks.observeValue = { _, _, _, _, _ in
            if armed { throw w.rt.exception(("NSGenericException", "boom")) }
        }
        let t = try w.object(thrower, "t")
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.observe(acct, t, "balance", [.new, .old])
        let error = cocoaException { try w.set(acct, "balance", .double(1)) }
        #expect(error == CocoaException(name: "NSGenericException", reason: "boom", depth: 1))
        // The exception unwound past alice's notification.
        #expect(w.take() == ["acct.balance → t {kind = 1; new = 1; old = 100}"])
        // Nothing is left pending for balance: a lone didChange delivers nothing…
        try w.did(acct, "balance")
        #expect(w.take() == [])
        // …and a later set notifies normally.
        armed = false
        try w.set(acct, "balance", .double(2))
        #expect(
            w.take() == [
                "acct.balance → t {kind = 1; new = 2; old = 1}",
                "acct.balance → alice {kind = 1; new = 2; old = 1}",
            ])
        #expect(w.rt.depth == 0)
    }

    @Test func anExceptionFromAPriorHandlerLeavesNoPendingChangeAndNoStore() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let thrower = w.observerClass("Thrower")
        var armed = true
        thrower.ownHooks.observeValue = { _, _, _, change, _ in
            if armed && change.isPrior { throw w.rt.exception(("NSGenericException", "prior boom")) }
        }
        let t = try w.object(thrower, "t")
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.observe(acct, t, "balance", [.prior, .new, .old])
        let error = cocoaException { try w.set(acct, "balance", .double(1)) }
        #expect(error?.reason == "prior boom")
        #expect(w.take() == ["acct.balance → t {kind = 1; notificationIsPrior = 1; old = 100}"])
        #expect(try w.get(acct, "balance") == .double(100))
        try w.did(acct, "balance")
        #expect(w.take() == [])
        armed = false
        try w.set(acct, "balance", .double(2))
        #expect(
            w.take() == [
                "acct.balance → t {kind = 1; notificationIsPrior = 1; old = 100}",
                "acct.balance → t {kind = 1; new = 2; old = 100}",
                "acct.balance → alice {kind = 1; new = 2; old = 100}",
            ])
    }

    @Test func anExceptionFromAProxyMutationHandlerLeavesNoPendingChange() throws {
        let w = World()
        let list = w.makeClass("List", [w.stored("items", .array(.string))])
        let l = try w.object(list, "l")
        let thrower = w.observerClass("Thrower")
        var armed = true
        thrower.ownHooks.observeValue = { _, _, _, change, _ in
            if armed && change.isPrior { throw w.rt.exception(("NSGenericException", "boom")) }
        }
        let t = try w.object(thrower, "t")
        try w.observe(l, t, "items", [.prior, .new])
        #expect(cocoaException { try w.rt.mutateArray(l, keyPath: "items", .insert([.string("a")], at: [0])) } != nil)
        #expect(try w.get(l, "items") == .array([]))
        try w.did(l, "items")
        _ = w.take()
        armed = false
        try w.rt.mutateArray(l, keyPath: "items", .insert([.string("b")], at: [0]))
        #expect(
            w.take() == [
                "l.items → t {indexes = (0); kind = 2; notificationIsPrior = 1}",
                "l.items → t {indexes = (0); kind = 2; new = (b)}",
            ])
    }

    @Test func aFailedStoreLeavesNoPendingChange() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old])
        #expect(runtimeFailure { try w.set(acct, "balance", .string("not a number")) } != nil)
        try w.did(acct, "balance")
        #expect(w.take() == [])
        try w.set(acct, "balance", .double(1))
        #expect(w.take() == ["acct.balance → alice {kind = 1; new = 1; old = 100}"])
    }

    // MARK: Depth limit (§9)

    func runaway(_ w: World) throws -> (KVOObject, ClassInfo) {
        let counter = try w.object(w.makeClass("Counter", [w.stored("value", .int)]), "counter")
        let bumper = w.observerClass("Bumper")
        bumper.ownHooks.observeValue = { _, _, object, _, _ in
            let value = World.ivar(object, "value").number ?? 0
            try w.set(object, "value", .int(Int(value) + 1))
        }
        let b = try w.object(bumper, "bumper")
        try w.observe(counter, b, "value", [.new])
        return (counter, bumper)
    }

    @Test func exceedingMaxDepthIsARuntimeErrorNotACrash() throws {
        let w = World()
        w.rt.maxDepth = 10
        let (counter, bumper) = try runaway(w)
        let failure = runtimeFailure { try w.set(counter, "value", .int(0)) }
        // The engine names the limit; how to raise it is the front end's to say.
        #expect(failure?.message == "notifications nested deeper than the maximum depth (10)")
        #expect(failure?.limit == .depth)
        #expect(w.notifyDepths == Array(0...10))
        #expect(w.rt.depth == 0)
        // The engine is usable afterwards and nothing was left pending.
        bumper.ownHooks.observeValue = nil
        try w.did(counter, "value")
        _ = w.take()
        try w.set(counter, "value", .int(100))
        #expect(w.take() == ["counter.value → bumper {kind = 1; new = 100}"])
    }

    @Test(
        .releaseOnly(
            "1,000 nested notifications on the test runner's thread: a debug build's frames (several times a release's) overflow its stack (signal 11)"
        ))
    func theDefaultMaxDepthIsReachedWithoutOverflowingTheStack() throws {
        let w = World()
        #expect(w.rt.maxDepth == 1000)
        let (counter, _) = try runaway(w)
        let failure = runtimeFailure { try w.set(counter, "value", .int(0)) }
        // The engine names the limit; how to raise it is the front end's to say.
        #expect(failure?.message == "notifications nested deeper than the maximum depth (1000)")
        #expect(failure?.limit == .depth)
        #expect(w.notifyDepths.count == 1001)
        #expect(w.rt.depth == 0)
    }

    @Test func nestedRunsBodiesOneLevelDeeperAndRestoresTheDepth() throws {
        let w = World()
        w.rt.maxDepth = 2
        let inner = try w.rt.nested { try w.rt.nested { w.rt.depth } }
        #expect(inner == 2)
        #expect(w.rt.depth == 0)
        let failure = runtimeFailure { _ = try w.rt.nested { try w.rt.nested { try w.rt.nested { 0 } } } }
        #expect(failure != nil)
        #expect(w.rt.depth == 0)
    }
}
