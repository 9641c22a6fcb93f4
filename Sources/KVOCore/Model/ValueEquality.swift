/// `==`, hashing and release of values, none of which recurses once per level
/// of nesting: scenarios build arrays millions of levels deep (`a = [a]` in a
/// loop), and Swift's own Array `==` and deinit recurse per level and
/// overflow the stack.
extension Value: Equatable {
    /// `==` of the scenario language: objects and contexts by identity, numbers by
    /// value across Int, Double and Bool (as NSNumber compares), the rest by value.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        equal(lhs, rhs, nanIsEqual: false) { _ in }
    }

    /// Set membership: NSSet asks `-isEqual:`, and `[NSNumber isEqual:]`
    /// (`compare:`) treats NaN as equal to NaN, so an NSSet keeps one NaN
    /// where Swift's `==` would keep every one (NaN != NaN).
    @inline(__always)
    public static func isMember(_ lhs: Value, _ rhs: Value) -> Bool {
        equal(lhs, rhs, nanIsEqual: true, setDepth: 0) { _ in }
    }

    /// Membership asked while comparing sets `setDepth` levels deep.
    @inline(__always)
    static func isMember(_ lhs: Value, _ rhs: Value, setDepth: Int) -> Bool {
        equal(lhs, rhs, nanIsEqual: true, setDepth: setDepth) { _ in }
    }

    /// `==` that charges `meter` one unit per pair of elements compared, so a
    /// comparison of huge values stops at the step limit or on Ctrl-C.
    public static func equal(_ lhs: Value, _ rhs: Value, meter: WorkMeter) throws -> Bool {
        try equal(lhs, rhs, nanIsEqual: false) { try meter.charge($0) }
    }

    /// What comparing two values finds without looking inside arrays.
    private enum Shallow {
        case equal, different
        case arrays(PackedArray, PackedArray)
    }

    /// Compares with an explicit stack of array pairs. Pairs of arrays
    /// already found equal are remembered by storage: `a = [a, a]` forty times
    /// is a small value with 2^40 leaves, and comparing it with an equal copy
    /// then costs one visit per distinct array, not per leaf.
    /// `setDepth`: how many sets deep this comparison runs (`shallow`).
    static func equal(
        _ lhs: Value, _ rhs: Value, nanIsEqual: Bool, setDepth: Int = 0, charge: (Int) throws -> Void
    ) rethrows -> Bool {
        var first: (PackedArray, PackedArray)
        switch try shallow(lhs, rhs, nanIsEqual, setDepth, charge) {
        case .equal: return true
        case .different: return false
        case .arrays(let a, let b): first = (a, b)
        }
        var stack: [(a: PackedArray, b: PackedArray, next: Int)] = [(first.0, first.1, 0)]
        first = (PackedArray(), PackedArray())
        var proven: Set<StoragePair> = []
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].next
            if index == stack[top].a.count {
                // A chain of one-element arrays is not remembered (the common
                // deep case, `a = [a]`): revisiting one stops at the next
                // remembered pair, so the work stays linear.
                if top > 0 && stack[top].a.count > 1 { proven.insert(StoragePair(stack[top].a, stack[top].b)) }
                stack.removeLast()
                continue
            }
            stack[top].next = index + 1
            try charge(1)
            switch try shallow(stack[top].a[index], stack[top].b[index], nanIsEqual, setDepth, charge) {
            case .equal: continue
            case .different: return false
            case .arrays(let a, let b):
                if !proven.isEmpty && proven.contains(StoragePair(a, b)) { continue }
                stack.append((a, b, 0))
            }
        }
        return true
    }

    /// Two arrays' storage, identified by address (`storageIdentity`): both
    /// stay alive (held by the values compared) for the whole comparison.
    private struct StoragePair: Hashable {
        let a: ObjectIdentifier?
        let b: ObjectIdentifier?
        init(_ a: PackedArray, _ b: PackedArray) {
            self.a = a.identity
            self.b = b.identity
        }
    }

    /// Sets compare elements through their hash index, which compares
    /// elements in turn: sets inside sets recurse once per level, bounded here.
    /// Deeper sets compare unequal rather than overflow the stack. The depth
    /// is passed down the recursion (`ValueSet.contains(_:setDepth:)`), so a
    /// comparison on one thread never sees another's.
    private static let maxSetDepth = 200

    private static func shallow(
        _ lhs: Value, _ rhs: Value, _ nanIsEqual: Bool, _ setDepth: Int,
        _ charge: (Int) throws -> Void
    ) rethrows -> Shallow {
        func result(_ equal: Bool) -> Shallow { equal ? .equal : .different }
        func numbers(_ a: Double) -> Shallow {
            guard let b = rhs.number else { return .different }
            return result(a == b || (nanIsEqual && a.isNaN && b.isNaN))
        }
        switch lhs {
        case .null:
            if case .observationInfo(let object) = rhs { return result(object.observationInfo == nil) }
            if case .null = rhs { return .equal }
            return .different
        case .bool(let a):
            return numbers(a ? 1 : 0)
        case .int(let a):
            // Two Ints compare exactly: through Double, Int.max and Int.max - 1 would be equal.
            if case .int(let b) = rhs { return result(a == b) }
            return numbers(Double(a))
        case .double(let a):
            return numbers(a)
        case .float, .decimal:
            return numbers(lhs.number ?? .nan)
        case .string(let a):
            if case .string(let b) = rhs { return result(a == b) }
            return .different
        case .object(let a):
            if case .object(let b) = rhs { return result(a === b) }
            return .different
        case .array(let a):
            guard case .array(let b) = rhs, a.count == b.count else { return .different }
            if a.isEmpty || StoragePair(a, a) == StoragePair(b, b) { return .equal }
            return .arrays(a, b)
        case .set(let a):
            guard case .set(let b) = rhs, a.count == b.count else { return .different }
            try charge(a.count)
            guard setDepth < maxSetDepth else { return .different }
            return result(a.elements.allSatisfy { b.contains($0, setDepth: setDepth + 1) })
        case .context(let a):
            if case .context(let b) = rhs { return result(a === b) }
            return .different
        case .option(let a):
            if case .option(let b) = rhs { return result(a == b) }
            return .different
        case .setMutation(let a):
            if case .setMutation(let b) = rhs { return result(a == b) }
            return .different
        case .arrayProxy(let a, let p):
            if case .arrayProxy(let b, let q) = rhs { return result(a === b && p == q) }
            return .different
        case .setProxy(let a, let p):
            if case .setProxy(let b, let q) = rhs { return result(a === b && p == q) }
            return .different
        case .observationInfo(let a):
            if case .observationInfo(let b) = rhs { return result(a === b) }
            if case .null = rhs { return result(a.observationInfo == nil) }
            return .different
        case .change(let a):
            if case .change(let b) = rhs { return result(a == b) }
            return .different
        case .exception(let a):
            if case .exception(let b) = rhs { return result(a == b) }
            return .different
        }
    }
}

extension Value: Hashable {
    /// Consistent with `==` and with set membership: numbers hash their
    /// Double value (Int 1, Double 1.0 and true are equal), NaN one fixed
    /// value, objects and contexts their identity. Bounded work: an array
    /// hashes its count and its first few elements two levels down, a set its
    /// count and its elements one level down (order-independently), so
    /// hashing a deep or self-doubling value costs little; equal-looking
    /// values that differ further in are told apart by `==`.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, depth: 2)
    }

    private func hash(into hasher: inout Hasher, depth: Int) {
        switch self {
        case .null, .observationInfo:
            // An unobserved object's observationInfo is equal to nil.
            hasher.combine(0 as UInt8)
        case .bool(let value): Value.hash(number: value ? 1 : 0, into: &hasher)
        case .int(let value): Value.hash(number: Double(value), into: &hasher)
        case .double(let value): Value.hash(number: value, into: &hasher)
        case .float, .decimal: Value.hash(number: number ?? .nan, into: &hasher)
        case .string(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .object(let object):
            hasher.combine(3 as UInt8)
            hasher.combine(ObjectIdentifier(object))
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            if depth > 0 {
                for element in elements.prefix(4) { element.hash(into: &hasher, depth: depth - 1) }
            }
        case .set(let set):
            hasher.combine(5 as UInt8)
            hasher.combine(set.count)
            if depth > 0 {
                var sum = 0
                for element in set.elements {
                    var inner = Hasher()
                    element.hash(into: &inner, depth: 0)
                    sum &+= inner.finalize()
                }
                hasher.combine(sum)
            }
        case .context(let context):
            hasher.combine(6 as UInt8)
            hasher.combine(ObjectIdentifier(context))
        case .option(let options):
            hasher.combine(7 as UInt8)
            hasher.combine(options)
        case .setMutation(let mutation):
            hasher.combine(8 as UInt8)
            hasher.combine(mutation)
        case .arrayProxy(let object, let keyPath):
            hasher.combine(9 as UInt8)
            hasher.combine(ObjectIdentifier(object))
            hasher.combine(keyPath)
        case .setProxy(let object, let keyPath):
            hasher.combine(10 as UInt8)
            hasher.combine(ObjectIdentifier(object))
            hasher.combine(keyPath)
        case .change(let change):
            hasher.combine(11 as UInt8)
            hasher.combine(change.kind)
        case .exception(let exception):
            hasher.combine(12 as UInt8)
            hasher.combine(exception.name)
        }
    }

    private static func hash(number: Double, into hasher: inout Hasher) {
        hasher.combine(1 as UInt8)
        // Every NaN hashes alike: set membership treats NaN as equal (isMember).
        if number.isNaN { hasher.combine(UInt64(0x7FF8_0000_0000_0000)) } else { hasher.combine(number) }
    }

    static func setHash(_ value: Value) -> Int {
        var hasher = Hasher()
        value.hash(into: &hasher)
        return hasher.finalize()
    }
}

extension Value {
    /// Releases a value without recursion: Swift's own release of an array of
    /// arrays recurses once per level, so a deeply nested array built by a
    /// scenario would overflow the stack when dropped. Taking each array (or
    /// set) out of its holder first leaves it uniquely referenced; emptying it
    /// into a work list frees it one level at a time. Anything that drops a
    /// value a scenario may have nested deeply (a variable, a property slot,
    /// an object's slots, a pending old value) goes through here.
    public static func dispose(_ value: inout Value) {
        switch value {
        case .array, .set: break
        default: return
        }
        var work: [Value] = []
        work.append(value)
        value = .null
        while !work.isEmpty {
            // Take the last entry's elements out in place: the entry becomes
            // nil, so its storage (if nobody else holds it) has one holder here.
            var array = PackedArray()
            var elements: [Value] = []
            takeElements(&work[work.count - 1], array: &array, setElements: &elements)
            work.removeLast()
            // Only storage nobody else holds is taken apart; shared storage is
            // just let go (its other holder keeps it, so nothing recurses).
            if array.isUnique() {
                // A nested collection sits in a box this array alone holds:
                // moved to the work list, the box is freed empty.
                array.takeCollections { work.append($0) }
                continue
            }
            guard hasUniqueStorage(&elements) else { continue }
            while !elements.isEmpty {
                let index = elements.count - 1
                switch elements[index] {
                case .array, .set:
                    work.append(.null)
                    swap(&work[work.count - 1], &elements[index])
                default:
                    break
                }
                elements.removeLast()
            }
        }
    }

    /// `dispose` of an optional value, leaving it nil (a change's old value,
    /// often its last holder).
    public static func dispose(_ value: inout Value?) {
        switch value {
        case .array?, .set?:
            var held = value ?? .null
            value = nil
            dispose(&held)
        default:
            value = nil
        }
    }

    /// Moves the elements held by `slot` into `array` or `setElements`,
    /// leaving `slot` nil. A function of its own: the copy a `switch` makes
    /// of its subject is let go of on return, before the caller asks whether
    /// the storage has one holder.
    private static func takeElements(_ slot: inout Value, array: inout PackedArray, setElements: inout [Value]) {
        var taken = Value.null
        swap(&taken, &slot)
        switch taken {
        case .array(let elements):
            taken = .null
            array = elements
        case .set(var set):
            taken = .null
            setElements = set.takeElements()
        default:
            break
        }
    }

    /// Replaces `slot` with `value`, releasing the old value without
    /// recursion when it is a collection. Costs one tag test otherwise.
    @inline(__always)
    public static func replace(_ slot: inout Value, with value: Value) {
        switch slot {
        case .array, .set:
            var old = Value.null
            swap(&old, &slot)
            slot = value
            dispose(&old)
        default:
            slot = value
        }
    }
}
