/// An unordered collection of distinct values that keeps insertion order for
/// speed and sorts by description only when it is shown.
///
/// Membership is NSSet's: `-isEqual:` and `-hash`, through `Value.isMember`
/// and `Value.hash(into:)`. Past `linearLimit` elements a hash index finds
/// them: a linear `contains` made building a set of n distinct values cost
/// n²/2 comparisons (200,000 values took minutes).
public struct ValueSet {
    public private(set) var elements: [Value] = []
    /// The hash index, nil while the set is small enough to scan. One
    /// reference, so a ValueSet stays two words and `Value` no larger (every
    /// copy of a `Value` in the interpreter would pay for a bigger one).
    private var index: HashIndex?
    private static let linearLimit = 8

    private final class HashIndex {
        /// Each element's hash, parallel to `elements`.
        var hashes: [Int]
        /// Open addressing with linear probing: position + 1 of an element,
        /// 0 for an empty slot; a power of two in size, at most a quarter full
        /// when built.
        var table: [Int]
        init(hashes: [Int], table: [Int]) {
            self.hashes = hashes
            self.table = table
        }
    }

    public init() {}
    public init<S: Sequence>(_ values: S) where S.Element == Value {
        for value in values { insert(value) }
    }

    public var count: Int { elements.count }

    public func contains(_ value: Value) -> Bool {
        contains(value, setDepth: 0)
    }

    /// `contains`, asked while comparing sets `setDepth` levels deep
    /// (`Value.equal`), which bounds how deep the comparison recurses.
    func contains(_ value: Value, setDepth: Int) -> Bool {
        if index == nil { return elements.contains { Value.isMember($0, value, setDepth: setDepth) } }
        return find(value, Value.setHash(value), setDepth: setDepth).index != nil
    }

    @discardableResult
    public mutating func insert(_ value: Value) -> Bool {
        if index == nil {
            if elements.contains(where: { Value.isMember($0, value) }) { return false }
            elements.append(value)
            if elements.count > Self.linearLimit { rebuildTable() }
            return true
        }
        let hash = Value.setHash(value)
        let (found, slot) = find(value, hash)
        if found != nil { return false }
        elements.append(value)
        if !isKnownUniquelyReferenced(&index), let shared = index {
            index = HashIndex(hashes: shared.hashes, table: shared.table)
        }
        guard let index else {
            rebuildTable()
            return true
        }
        index.hashes.append(hash)
        index.table[slot] = elements.count
        if elements.count * 2 > index.table.count { rebuildTable() }
        return true
    }

    @discardableResult
    public mutating func remove(_ value: Value) -> Bool {
        let index: Int
        if self.index == nil {
            guard let position = elements.firstIndex(where: { Value.isMember($0, value) }) else { return false }
            index = position
        } else {
            guard let position = find(value, Value.setHash(value)).index else { return false }
            index = position
        }
        elements.remove(at: index)
        if self.index != nil { rebuildTable(dropping: index) }
        return true
    }

    /// Removes every element of `other` in one pass (removing them one at a
    /// time would shift the elements once per removal). Returns the removed
    /// elements, in this set's order.
    @discardableResult
    public mutating func subtract(_ other: ValueSet) -> ValueSet {
        var removed = ValueSet()
        var kept: [Value] = []
        kept.reserveCapacity(elements.count)
        for element in elements {
            if other.contains(element) { removed.insert(element) } else { kept.append(element) }
        }
        if removed.count > 0 { self = ValueSet(uniqueElements: kept) }
        return removed
    }

    /// A set of values already known to be distinct.
    private init(uniqueElements: [Value]) {
        elements = uniqueElements
        if elements.count > Self.linearLimit { rebuildTable() }
    }

    /// Empties the set and hands its elements over, so that `Value.dispose`
    /// can take nested arrays apart without recursion.
    mutating func takeElements() -> [Value] {
        var taken: [Value] = []
        swap(&taken, &elements)
        index = nil
        return taken
    }

    /// The slot holding `value`'s position (index non-nil), or the empty slot
    /// where it would go.
    private func find(_ value: Value, _ hash: Int, setDepth: Int = 0) -> (index: Int?, slot: Int) {
        guard let index else { return (nil, 0) }
        let table = index.table, hashes = index.hashes
        let mask = table.count - 1
        var slot = hash & mask
        while true {
            let entry = table[slot]
            if entry == 0 { return (nil, slot) }
            if hashes[entry - 1] == hash && Value.isMember(elements[entry - 1], value, setDepth: setDepth) {
                return (entry - 1, slot)
            }
            slot = (slot + 1) & mask
        }
    }

    /// Builds the index afresh (a new object: a copy of the set may share
    /// the old one), reusing the hashes it has, less the one at `dropping`.
    private mutating func rebuildTable(dropping removed: Int? = nil) {
        guard elements.count > Self.linearLimit else {
            index = nil
            return
        }
        var hashes = index?.hashes ?? []
        if let removed, removed < hashes.count { hashes.remove(at: removed) }
        if hashes.count != elements.count { hashes = elements.map(Value.setHash) }
        var size = 16
        while size < elements.count * 4 { size *= 2 }
        var table = [Int](repeating: 0, count: size)
        let mask = size - 1
        for (position, hash) in hashes.enumerated() {
            var slot = hash & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = position + 1
        }
        index = HashIndex(hashes: hashes, table: table)
        // Checked where the index is built anew, which costs as much:
        // checking at every insert would make building a set quadratic.
        _checkInvariants()
    }

    #if KVO_CHECKED
    /// The checked lane's audit of the index: present exactly past
    /// `linearLimit` elements, one hash per element and each the element's
    /// own, a power-of-two table at most half full, every element's position
    /// in it once and reachable by probing from its hash.
    public func _checkInvariants() {
        guard let index else {
            precondition(elements.count <= Self.linearLimit, "a large set has no hash index")
            return
        }
        precondition(elements.count > Self.linearLimit, "a small set kept its hash index")
        precondition(index.hashes.count == elements.count, "the index has not one hash per element")
        let table = index.table
        precondition(table.count > 0 && table.count & (table.count - 1) == 0, "the table size is not a power of two")
        precondition(elements.count * 2 <= table.count, "the table is more than half full")
        var seen = [Bool](repeating: false, count: elements.count)
        for entry in table where entry != 0 {
            precondition(entry >= 1 && entry <= elements.count, "a table entry points past the elements")
            precondition(!seen[entry - 1], "an element is in the table twice")
            seen[entry - 1] = true
        }
        precondition(!seen.contains(false), "an element is missing from the table")
        let mask = table.count - 1
        for (position, element) in elements.enumerated() {
            let hash = index.hashes[position]
            precondition(hash == Value.setHash(element), "an element's hash is not its own")
            var slot = hash & mask
            while table[slot] != position + 1 {
                precondition(table[slot] != 0, "an element cannot be reached from its hash")
                slot = (slot + 1) & mask
            }
        }
    }
    #else
    @inline(__always) public func _checkInvariants() {}
    #endif

    /// Elements in the order they are printed: sorted by description.
    public var sorted: [Value] { sorted(keyBudget: Value.descriptionLimit) }

    /// Sorted by description, each element's description (its sort key) cut
    /// after `keyBudget / count` bytes, kept between 64 bytes and 64 KiB. A
    /// set of large values (64 copies of an array with 2^40 leaves) would
    /// otherwise build a 64 MiB key per element, and sets inside those keys
    /// sort again. Elements whose descriptions agree up to their cut keep
    /// insertion order (the sort is stable): a deviation only for elements
    /// longer than 64 KiB, or sets too large to print in full anyway. Sets
    /// nested deeper than `maxSortingDepth` inside keys keep insertion order,
    /// so describing a key never recurses far.
    public func sorted(keyBudget: Int) -> [Value] {
        guard elements.count > 1 else { return elements }
        let depth = Self.sortingDepth.value
        if depth >= Self.maxSortingDepth { return elements }
        Self.sortingDepth.value = depth + 1
        defer { Self.sortingDepth.value = depth }
        // 0: no sort under way on this thread, so no budget in force.
        let saved = Self.keyBudgetInForce.value
        let budget = saved == 0 ? keyBudget : min(keyBudget, saved)
        let cap = max(64, min(budget / elements.count, Self.maxKeyLength))
        Self.keyBudgetInForce.value = cap
        defer { Self.keyBudgetInForce.value = saved }
        let keyed = elements.map { element -> (Value, String) in
            var key = ""
            element.describe(into: &key, limit: cap)
            return (element, key)
        }
        return keyed.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// How deep `sorted` is running inside the keys of outer sets, and the
    /// key budget of the innermost (0 when none): recursion guards, so kept
    /// per thread. They cannot be passed down: the keys are descriptions, and
    /// a description reaches nested sets through values' own descriptions
    /// (a change dictionary inside a set sorts its sets too).
    private static let sortingDepth = ThreadLocalInt()
    private static let keyBudgetInForce = ThreadLocalInt()
    private static let maxSortingDepth = 32
    private static let maxKeyLength = 1 << 16
}
