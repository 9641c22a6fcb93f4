/// Which slots of an `ObservationInfo` hold a live observance, as a Fenwick
/// tree: how many live ones precede a slot, and a removal, cost O(log n).
struct LiveCounts {
    /// 1-based: `tree[i]` counts the live slots in (i - lowbit(i), i].
    private var tree: [Int]

    init(_ slots: [Observance?]) {
        tree = [0] + slots.map { $0 == nil ? 0 : 1 }
        for i in tree.indices.dropFirst() {
            let parent = i + (i & -i)
            if parent < tree.count { tree[parent] += tree[i] }
        }
    }

    /// Live slots among the first `slots` (positions 0..<slots).
    func prefix(_ slots: Int) -> Int {
        var sum = 0
        var i = slots
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    mutating func append(live: Bool) {
        let i = tree.count
        tree.append((live ? 1 : 0) + prefix(i - 1) - prefix(i - (i & -i)))
    }

    mutating func remove(at position: Int) {
        var i = position + 1
        while i < tree.count {
            tree[i] -= 1
            i += i & -i
        }
    }
}
