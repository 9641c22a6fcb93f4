import Testing
@testable import KVOCore

/// Issue 26: what `--explain` and `object_getClass` ask of an observation
/// info costs O(1) or O(log n), not a walk of every observance; each answer
/// is checked against the walk it replaced.
@Suite struct ObservationInfoCostTests {
    /// The index a dump shows, counted the slow way.
    func walkedIndex(_ info: ObservationInfo, _ observance: Observance) -> Int? {
        info.observances.firstIndex { $0 === observance }
    }

    /// Registrations and removals in a pseudo-random order, with holes left
    /// by removal and closed by compaction: every live observance's index is
    /// what counting the live slots before it gives, before and after the
    /// Fenwick tree of live slots is built.
    @Test func indexesStayRightThroughRemovalsAndCompaction() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        var registered = 0
        var seed: UInt64 = 26
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<600 {
            if next(3) > 0 || registered == 0 {
                try w.observe(acct, alice, round % 2 == 0 ? "balance" : "interestRate", [])
                registered += 1
            } else {
                try w.unobserve(acct, alice, next(2) == 0 ? "balance" : "interestRate")
                registered -= 1
            }
            guard let info = acct.observationInfo else { continue }
            if round % 7 == 0 {
                for observance in info.observances {
                    #expect(info.index(of: observance) == walkedIndex(info, observance))
                }
            }
        }
        let info = try #require(acct.observationInfo)
        for observance in info.observances { #expect(info.index(of: observance) == walkedIndex(info, observance)) }
        #expect(info.observances.map { info.index(of: $0) } == Array(0..<info.count).map { Optional($0) })
    }

    @Test func aRemovedObservanceHasNoIndex() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [])
        try w.observe(acct, alice, "interestRate", [])
        let info = try #require(acct.observationInfo)
        let first = info.observances[0]
        try w.unobserve(acct, alice, "balance")
        #expect(info.index(of: first) == nil)
        #expect(info.index(of: info.observances[0]) == 0)
    }

    /// `removeObserver` under `--explain` names how many registrations
    /// matched: counted in the observer's index, with and without a context.
    @Test func registrationCountsFollowAddsAndRemovals() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        let first = Context(name: "First")
        let second = Context(name: "Second")
        for context in [first, second, first, nil] { try w.observe(acct, alice, "balance", [], context: context) }
        try w.observe(acct, alice, "interestRate", [])
        let info = try #require(acct.observationInfo)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .any) == 4)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .exactly(first)) == 2)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .exactly(nil)) == 1)
        #expect(info.registrationCount(of: alice, keyPath: "interestRate", context: .any) == 1)
        try w.unobserve(acct, alice, "balance", context: first)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .any) == 3)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .exactly(first)) == 1)
        try w.unobserve(acct, alice, "balance")
        try w.unobserve(acct, alice, "balance")
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .any) == 1)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .exactly(first)) == 1)
        #expect(info.registrationCount(of: alice, keyPath: "balance", context: .exactly(second)) == 0)
    }

    /// `object_getClass` asks whether some observance watches a key notified
    /// automatically: each observance is classified once however often the
    /// question comes, and the answer follows additions and removals.
    @Test func automaticObservancesAreClassifiedOnceAndCounted() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        var asked = 0
        func isAutomatic(_ observance: Observance) -> Bool {
            asked += 1
            return observance.firstKey == "balance"
        }
        for _ in 0..<1_000 { try w.observe(acct, alice, "interestRate", []) }
        let info = try #require(acct.observationInfo)
        for _ in 0..<1_000 { #expect(!info.hasAutomaticObservance(isAutomatic)) }
        #expect(asked == 1_000)
        try w.observe(acct, alice, "balance", [])
        for _ in 0..<1_000 { #expect(info.hasAutomaticObservance(isAutomatic)) }
        #expect(asked == 1_001)
        try w.unobserve(acct, alice, "balance")
        #expect(!info.hasAutomaticObservance(isAutomatic))
        #expect(asked == 1_001)
        // Removals leave holes, then a compaction renumbers the slots.
        for _ in 0..<900 { try w.unobserve(acct, alice, "interestRate") }
        try w.observe(acct, alice, "balance", [])
        #expect(info.hasAutomaticObservance(isAutomatic))
        try w.observe(acct, alice, "balance", [])
        try w.unobserve(acct, alice, "balance")
        #expect(info.hasAutomaticObservance(isAutomatic))
        try w.unobserve(acct, alice, "balance")
        #expect(!info.hasAutomaticObservance(isAutomatic))
        #expect(asked == 1_002)
    }
}
