import Testing
@testable import KVOCore

/// A change whose observers all observe the key directly keeps the observation
/// info's observances instead of a record each (`ObservationInfo.directSet`):
/// it must notify exactly whom the records would have.
@Suite struct DirectSetTests {
    func account(_ w: World) throws -> KVOObject {
        try w.object(
            w.makeClass(
                "Account",
                [
                    w.stored("balance", .double, manual: true),
                    w.stored("owner", .string),
                ]), "acct")
    }

    @Test func anObserverAddedBetweenWillAndDidIsNotNotified() throws {
        let w = World()
        let acct = try account(w)
        let (a, b, late) = (
            try w.object(w.personClass(), "a"), try w.object(w.personClass(), "b"),
            try w.object(w.personClass(), "late")
        )
        try w.observe(acct, a, "balance", [.new, .old])
        try w.observe(acct, b, "balance", [.new])
        try w.will(acct, "balance")
        try w.observe(acct, late, "balance", [.new, .old])
        try w.setIvar(acct, "balance", .double(5))
        try w.did(acct, "balance")
        #expect(
            w.take() == [
                "acct.balance → b {kind = 1; new = 5}",
                "acct.balance → a {kind = 1; new = 5; old = 0}",
            ])
    }

    @Test func anObserverRemovedBetweenWillAndDidIsNotNotified() throws {
        let w = World()
        let acct = try account(w)
        let (a, b, c) = (
            try w.object(w.personClass(), "a"), try w.object(w.personClass(), "b"),
            try w.object(w.personClass(), "c")
        )
        for observer in [a, b, c] { try w.observe(acct, observer, "balance", [.old]) }
        try w.will(acct, "balance")
        try w.unobserve(acct, b, "balance")
        try w.did(acct, "balance")
        #expect(w.take() == ["acct.balance → c {kind = 1; old = 0}", "acct.balance → a {kind = 1; old = 0}"])
    }

    @Test func observersOfOtherKeysAreSkippedAndTheAnswerFollowsRegistrations() throws {
        let w = World()
        let acct = try account(w)
        let (a, b, c) = (
            try w.object(w.personClass(), "a"), try w.object(w.personClass(), "b"),
            try w.object(w.personClass(), "c")
        )
        try w.observe(acct, a, "owner", [.new])
        try w.observe(acct, b, "owner", [.new])
        try w.observe(acct, c, "balance", [.new])
        try w.set(acct, "owner", .string("x"))
        #expect(w.take() == ["acct.owner → b {kind = 1; new = x}", "acct.owner → a {kind = 1; new = x}"])
        // A .prior observer makes the change take records again.
        try w.observe(acct, c, "owner", [.new, .prior])
        try w.set(acct, "owner", .string("y"))
        #expect(
            w.take() == [
                "acct.owner → c {kind = 1; notificationIsPrior = 1}",
                "acct.owner → c {kind = 1; new = y}",
                "acct.owner → b {kind = 1; new = y}", "acct.owner → a {kind = 1; new = y}",
            ])
    }

    @Test func aPureDependentKeyMakesADirectSetAndAnImpureOneDoesNot() throws {
        for pure in [true, false] {
            let w = World()
            let doubled = w.computed("doubled", .double, affectedBy: ["balance"]) { object in
                if case .double(let balance) = World.ivar(object, "balance") { return .double(balance * 2) }
                return .null
            }
            doubled.getterIsPure = pure
            let acct = try w.object(w.makeClass("Account", [w.stored("balance", .double), doubled]), "acct")
            let (a, b) = (try w.object(w.personClass(), "a"), try w.object(w.personClass(), "b"))
            try w.observe(acct, a, "doubled", [.new, .old])
            try w.observe(acct, b, "doubled", [.old])
            let direct = acct.observationInfo?.directSet(of: "balance")
            #expect((direct != nil) == pure)
            #expect(direct?.property === (pure ? doubled : nil))
            #expect(direct?.isDependent == (pure ? true : nil))
            try w.set(acct, "balance", .double(2))
            try w.set(acct, "balance", .double(3))
            #expect(
                w.take() == [
                    "acct.doubled → b {kind = 1; old = 0}", "acct.doubled → a {kind = 1; new = 4; old = 0}",
                    "acct.doubled → b {kind = 1; old = 4}", "acct.doubled → a {kind = 1; new = 6; old = 4}",
                ], "pure: \(pure)")
        }
    }
}
