import Foundation
import Testing

@testable import KVOCore

/// The checked lane's invariant checks (`_checkInvariants()`, compiled with
/// KVO_CHECKED: `make test-checked`) hold after workloads that exercise
/// what they check. In other builds the checks are empty, so these run only
/// in the checked lane.
@Suite(.enabled(if: KVORuntime.checksInvariants, "the invariant checks are compiled only in the checked lane"))
struct InvariantTests {
    /// Observation infos: holes left by removals, compaction, the observer
    /// index, `--explain`'s live counts and the direct-set cache, after
    /// registrations, removals and sets made from inside handlers.
    @Test func observationInfoHoldsAfterObservingRemovingAndReentrantSets() throws {
        let w = World()
        w.rt.explains = true
        let (acct, _) = try w.acctAndAlice()
        let watcher = w.observerClass()
        var observers: [KVOObject] = []
        for index in 0..<80 {
            let observer = try w.object(watcher, "w\(index)")
            observers.append(observer)
            try w.observe(acct, observer, "balance", index % 3 == 0 ? [.new, .old] : [.new])
            if index % 5 == 0 { try w.observe(acct, observer, "interestRate") }
        }
        // A handler that sets another key and removes an observer: changes
        // made while notifications are delivered.
        var removed = 0
        watcher.ownHooks.observeValue = { observer, keyPath, object, _, _ in
            guard keyPath == "balance", removed < 10 else { return }
            removed += 1
            try w.rt.removeObserver(observer, from: .object(object), keyPath: "balance", context: .any)
            try w.set(object, "interestRate", .double(Double(removed)))
        }
        try w.set(acct, "balance", .double(1))
        // Holes past half the slots compact the info.
        for observer in observers.prefix(60) where observer.name != "w0" {
            try? w.unobserve(acct, observer, "balance")
        }
        try w.set(acct, "balance", .double(2))
        let info = try #require(acct.observationInfo)
        _ = info.index(of: info.observances[info.observances.count / 2])  // builds the live counts
        // The handler removed w79 down to w70 (the did phase notifies the
        // newest registration first).
        try w.unobserve(acct, observers[65], "balance")
        info._checkInvariants()
        let before = w.rt.invariantChecks
        w.rt._checkInvariants()
        #expect(w.rt.invariantChecks == before + 1)
    }

    /// The pending-change stack: a did phase that finds its change below the
    /// top leaves a tombstone and builds the index, which must stay in step.
    @Test func pendingStackHoldsWithChangesTakenBelowTheTop() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        try w.observe(acct, alice, "balance", [.new, .old])
        try w.will(acct, "balance")
        try w.will(acct, "interestRate")
        try w.will(alice, "name")
        try w.did(acct, "balance")  // below the top: a tombstone and an index
        w.rt._checkInvariants()
        try w.did(alice, "name")
        try w.did(acct, "interestRate")
        w.rt._checkInvariants()
        // The taken change stays as a tombstone until it reaches the top.
        #expect(w.rt.pending.count == 1 && w.rt.pending.allSatisfy(\.isTaken) && w.rt.tombstones == 1)
        #expect(w.rt.invariantChecks == 2)
    }

    /// The ValueSet index: built past eight elements, rebuilt on growth and
    /// removal, dropped below it, NaN kept once, sets inside sets.
    @Test func valueSetIndexHoldsAcrossInsertsRemovalsAndSubtraction() {
        var set = ValueSet()
        for value in 0..<500 { set.insert(.int(value)) }
        set.insert(.double(.nan))
        set.insert(.double(.nan))
        set.insert(.set(ValueSet([.int(1), .string("a")])))
        set.insert(.set(ValueSet([.string("a"), .int(1)])))
        #expect(set.count == 502)
        set._checkInvariants()
        for value in stride(from: 0, to: 500, by: 3) { set.remove(.int(value)) }
        set._checkInvariants()
        let copy = set
        set.subtract(ValueSet((0..<495).map(Value.int)))
        set._checkInvariants()
        copy._checkInvariants()
        // 496, 497, 499, NaN and the nested set.
        #expect(set.count == 5)
        #expect(copy.count == 502 - 167)
    }
}

/// Two runs on two threads at once share nothing mutable: the comparison
/// depth of nested sets and the sort guards of their descriptions were
/// process-wide statics, which two threads would have corrupted for each
/// other (a lost update leaves the depth wrong for good). Only in the
/// checked lane: the fast build counts references non-atomically, and this
/// test's threads share the test's own objects.
@Suite(.enabled(if: KVORuntime.checksInvariants, "the fast build is single-threaded (Package.swift)"))
struct TwoThreadsTests {
    @Test func nestedSetsCompareAndSortAloneOnEachThread() {
        let results = Results()
        let done = DispatchGroup()
        for thread in 0..<2 {
            done.enter()
            Thread {
                // Built on this thread: no value crosses threads.
                let (nested, same) = Self.nestedSets(thread)
                var agreed = true
                var description = ""
                for _ in 0..<5_000 {
                    agreed = agreed && nested == same
                    description = nested.collectionDescription
                }
                results.record(thread, agreed: agreed, description: description)
                done.leave()
            }.start()
        }
        done.wait()
        #expect(results.agreed == [true, true])
        for thread in 0..<2 {
            #expect(results.descriptions[thread] == Self.nestedSets(thread).0.collectionDescription)
        }
    }

    /// A set holding a set holding a set, and an equal one built in another order.
    private static func nestedSets(_ thread: Int) -> (Value, Value) {
        var inner = ValueSet()
        for value in 0..<12 { inner.insert(.int(value &* (thread + 1))) }
        let nested = Value.set(ValueSet([.set(ValueSet([.set(inner)])), .string("x")]))
        let same = Value.set(ValueSet([.string("x"), .set(ValueSet([.set(inner)]))]))
        return (nested, same)
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var agreed: [Bool] = [false, false]
    private(set) var descriptions: [String] = ["", ""]
    func record(_ thread: Int, agreed: Bool, description: String) {
        lock.lock()
        defer { lock.unlock() }
        self.agreed[thread] = agreed
        descriptions[thread] = description
    }
}
