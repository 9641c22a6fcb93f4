/// An object's observances by the keys whose change triggers them, each
/// key's in registration order, so that a change finds the observances of
/// its key without walking those of every other key (an object observed for
/// 25,000 keys, each set once, was quadratic).
///
/// `ObservationInfo` builds one only when a key is looked up among
/// `ObservationInfo.keyIndexThreshold` observances or more: most objects
/// have a few, for which walking them all is cheaper than hashing the key,
/// and which should not pay a dictionary.
///
/// A removed observance leaves a hole (nil) in each of its keys' lists, as
/// it does in the info's slots, so a list is copied as it is (O(1)) into a
/// change and read as slots are. Each list keeps the registration serials of
/// its entries beside them: a removal finds its entry by binary search (the
/// serials grow with registration order), and an observance registered
/// again (a spare forwarding observance) has a new serial, so its old entry
/// can never be taken for it.
final class KeyIndex {
    /// Observances per trigger key.
    private var lists: [String: KeyList] = [:]
    /// Observances whose dependency closure was too large to store
    /// (`Observance.largeClosure`): their class answers which keys trigger
    /// them, so every key's candidates include them.
    private var unkeyed = KeyList()

    struct KeyList {
        /// In registration order; nil where an observance was removed.
        private(set) var observances: [Observance?] = []
        /// `observances[i]`'s registration serial, kept for holes too.
        private(set) var serials: [Int] = []
        private(set) var live = 0

        mutating func append(_ observance: Observance) {
            // A key listed twice among the triggers is listed once here.
            if let last = serials.last, last == observance.serial { return }
            observances.append(observance)
            serials.append(observance.serial)
            live += 1
        }

        /// Leaves a hole where `observance` was; true when none is left.
        mutating func remove(_ observance: Observance) -> Bool {
            guard let index = entry(of: observance) else { return live == 0 }
            observances[index] = nil
            live -= 1
            // As the info's slots: holes are closed once they are the majority.
            if observances.count > 32 && live * 2 < observances.count { compact() }
            return live == 0
        }

        private func entry(of observance: Observance) -> Int? {
            var low = 0
            var high = serials.count
            while low < high {
                let middle = low + (high - low) / 2
                if serials[middle] < observance.serial { low = middle + 1 } else { high = middle }
            }
            guard low < serials.count, serials[low] == observance.serial, observances[low] === observance else {
                return nil
            }
            return low
        }

        /// Closes the holes in place: the storage is kept (no allocation,
        /// unless a change still holds the old lists).
        private mutating func compact() {
            var kept = 0
            for index in observances.indices where observances[index] != nil {
                observances[kept] = observances[index]
                serials[kept] = serials[index]
                kept += 1
            }
            observances.removeLast(observances.count - kept)
            serials.removeLast(serials.count - kept)
        }
    }

    /// Indexes `observances` (an info's slots), in their order. Neighbours
    /// usually share their key (B2's 10,000 observers of one key): the list
    /// of the last key is kept at hand instead of hashed for each.
    init(_ observances: [Observance?]) {
        var lastKey: String?
        var lastList: Dictionary<String, KeyList>.Index?
        for case let observance? in observances {
            if observance.largeClosure {
                unkeyed.append(observance)
                continue
            }
            for key in observance.triggerKeys {
                if let lastList, let lastKey, key == lastKey {
                    lists.values[lastList].append(observance)
                    continue
                }
                if let index = lists.index(forKey: key) {
                    lists.values[index].append(observance)
                    lastList = index
                } else {
                    var list = KeyList()
                    list.append(observance)
                    lists[key] = list
                    // The insertion may have moved every entry.
                    lastList = nil
                }
                lastKey = key
            }
        }
    }

    func append(_ observance: Observance) {
        if observance.largeClosure {
            unkeyed.append(observance)
            return
        }
        for key in observance.triggerKeys {
            if let index = lists.index(forKey: key) {
                lists.values[index].append(observance)
            } else {
                var list = KeyList()
                list.append(observance)
                lists[key] = list
            }
        }
    }

    func remove(_ observance: Observance) {
        if observance.largeClosure {
            if unkeyed.remove(observance) { unkeyed = KeyList() }
            return
        }
        for key in observance.triggerKeys {
            guard let index = lists.index(forKey: key) else { continue }
            // A key nobody observes any more takes no room.
            if lists.values[index].remove(observance) { lists.remove(at: index) }
        }
    }

    /// Every observance a change of `key` may trigger, and maybe more (the
    /// caller asks each `isTriggered(by:)`), in registration order, with holes.
    func observances(triggeredBy key: String) -> [Observance?] {
        guard let list = lists[key] else { return unkeyed.live == 0 ? [] : unkeyed.observances }
        guard unkeyed.live > 0 else { return list.observances }
        return Self.merged(list, unkeyed)
    }

    /// The live observances of two lists in registration order (by serial).
    private static func merged(_ first: KeyList, _ second: KeyList) -> [Observance?] {
        var result: [Observance?] = []
        result.reserveCapacity(first.live + second.live)
        var i = 0
        var j = 0
        while i < first.serials.count || j < second.serials.count {
            let takeFirst =
                j == second.serials.count || (i < first.serials.count && first.serials[i] < second.serials[j])
            let observance = takeFirst ? first.observances[i] : second.observances[j]
            if takeFirst { i += 1 } else { j += 1 }
            if let observance { result.append(observance) }
        }
        return result
    }

    #if KVO_CHECKED
    /// The checked lane's audit: the lists hold exactly the live observances
    /// `live` lists (once under each trigger key, or among the unkeyed), in
    /// registration order.
    func _checkInvariants(_ live: [Observance]) {
        var expected: [String: [ObjectIdentifier]] = [:]
        var expectedUnkeyed: [ObjectIdentifier] = []
        for observance in live {
            if observance.largeClosure {
                expectedUnkeyed.append(ObjectIdentifier(observance))
            } else {
                var seen: Set<String> = []
                for key in observance.triggerKeys where seen.insert(key).inserted {
                    expected[key, default: []].append(ObjectIdentifier(observance))
                }
            }
        }
        func check(_ list: KeyList, _ wanted: [ObjectIdentifier]) {
            let held = list.observances.compactMap { $0.map(ObjectIdentifier.init) }
            precondition(held == wanted, "a key's list is not its live observances in registration order")
            precondition(list.live == wanted.count, "a key's live count is wrong")
            precondition(list.observances.count == list.serials.count, "a key's serials are out of step")
            precondition(zip(list.serials, list.serials.dropFirst()).allSatisfy { $0 < $1 }, "serials out of order")
            for (observance, serial) in zip(list.observances, list.serials) {
                if let observance { precondition(observance.serial == serial, "an entry's serial is stale") }
            }
        }
        precondition(Set(lists.keys) == Set(expected.keys), "the key index lists other keys than the live ones")
        for (key, list) in lists { check(list, expected[key] ?? []) }
        check(unkeyed, expectedUnkeyed)
    }
    #endif
}
