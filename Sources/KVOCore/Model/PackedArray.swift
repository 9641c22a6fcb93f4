/// An array value's elements, 8 bytes each in `PackedSlot`'s encoding where
/// `[Value]` spends 16: a number, null, a Boolean or an object sits in the
/// element itself, anything else in a `SlotBox` that this element alone
/// holds. Issue 43's million objects kept in `var ps = []`: 16 → 8 bytes of
/// array per object, GNUstep's NSMutableArray's.
///
/// Copy on write, as `Array`: the storage is shared until a holder that is
/// not its only one changes it. Elements are read out as `Value`s (a copy);
/// a collection inside one is changed by reading it, changing it and
/// storing it back, as a slot's is.
///
/// Hand-rolled because no collection in the standard library or
/// swift-collections stores its elements in an encoding of their own.
/// Dropping one never recurses per level of nesting: its elements' boxes go
/// through `Value.dispose`, which takes nested collections apart in a loop.
public struct PackedArray {
    @usableFromInline var storage: PackedArrayStorage?

    @inlinable public init() {}

    /// The elements written straight into a storage of their count (a
    /// sequence's `append`s check the storage's uniqueness each).
    @inlinable public init<C: Collection>(_ values: C) where C.Element == Value {
        let count = values.count
        guard count > 0 else { return }
        let storage = PackedArrayStorage.make(capacity: count)
        storage.withUnsafeMutablePointers { header, elements in
            var index = 0
            for value in values where index < count {
                (elements + index).initialize(to: PackedSlot.store(value))
                index += 1
            }
            header.pointee.count = index
        }
        self.storage = storage
    }

    /// The storage's address, as an identity: two arrays with the same one
    /// share their elements. Compared only, while both arrays are alive.
    @inlinable public var identity: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

    /// Whether nobody else holds the storage (an empty array has none).
    @inlinable public mutating func isUnique() -> Bool { isKnownUniquelyReferenced(&storage) }

    /// The elements as `[Value]`, for the callers that need one.
    @inlinable public var values: [Value] { Array(self) }

    /// Hands each array or set inside the elements to `take`, leaving its
    /// box holding null; `Value.dispose` then frees the storage without
    /// recursion. Only on storage nobody else holds (`isUnique`).
    mutating func takeCollections(_ take: (Value) -> Void) {
        guard let storage else { return }
        storage.withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count where PackedSlot.isBox(elements[index]) {
                let box = PackedSlot.box(elements[index])
                switch box.value {
                case .array, .set:
                    var inner = Value.null
                    swap(&inner, &box.value)
                    take(inner)
                default:
                    break
                }
            }
        }
    }

    /// Makes the storage this array's own, with room for `minimumCapacity`.
    @inlinable
    mutating func makeUnique(minimumCapacity: Int) {
        // Not `if let storage`: the binding is a second holder.
        if isKnownUniquelyReferenced(&storage), let capacity = storage?.header.capacity, capacity >= minimumCapacity {
            return
        }
        if storage == nil && minimumCapacity == 0 { return }
        grow(minimumCapacity: minimumCapacity)
    }

    /// A new storage with room for `minimumCapacity` (doubling, as
    /// `Array`'s does), the elements moved when this array held them alone
    /// and copied otherwise.
    @usableFromInline @inline(never)
    mutating func grow(minimumCapacity: Int) {
        let count = self.count
        let unique = isKnownUniquelyReferenced(&storage)
        let oldCapacity = storage?.header.capacity ?? 0
        // Doubling only when full: a copy made to write keeps the capacity.
        let capacity = Swift.max(minimumCapacity, count, minimumCapacity > oldCapacity ? oldCapacity * 2 : 0, 4)
        let new = PackedArrayStorage.make(capacity: capacity)
        if let old = storage {
            old.withUnsafeMutablePointers { oldHeader, oldElements in
                new.withUnsafeMutablePointerToElements { elements in
                    if unique {
                        elements.moveInitialize(from: oldElements, count: count)
                        oldHeader.pointee.count = 0
                    } else {
                        for index in 0..<count {
                            (elements + index).initialize(to: PackedSlot.copy(oldElements[index]))
                        }
                    }
                }
            }
            new.header.count = count
        }
        storage = new
    }
}

/// The count and capacity, then the elements.
@usableFromInline
struct PackedArrayHeader {
    @inlinable init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = capacity
    }

    @usableFromInline var count: Int
    @usableFromInline var capacity: Int
}

@usableFromInline
final class PackedArrayStorage: ManagedBuffer<PackedArrayHeader, UInt64> {
    @inlinable
    static func make(capacity: Int) -> PackedArrayStorage {
        let made = create(minimumCapacity: capacity) { _ in PackedArrayHeader(count: 0, capacity: capacity) }
        return unsafeDowncast(made, to: PackedArrayStorage.self)
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            for index in 0..<header.pointee.count { PackedSlot.release(elements[index]) }
        }
    }
}

extension PackedArray: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage?.header.count ?? 0 }
    @inlinable public var count: Int { storage?.header.count ?? 0 }
    @inlinable public var isEmpty: Bool { count == 0 }
    @inlinable public func index(after index: Int) -> Int { index + 1 }
    @inlinable public func index(before index: Int) -> Int { index - 1 }

    @inlinable public subscript(position: Int) -> Value {
        @inline(__always) get {
            guard let storage, position >= 0, position < storage.header.count else {
                preconditionFailure("index out of range")
            }
            return PackedSlot.load(storage.withUnsafeMutablePointerToElements { $0[position] })
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            makeUnique(minimumCapacity: count)
            guard let storage else { return }
            let element = storage.withUnsafeMutablePointerToElements { $0 + position }
            let old = element.pointee
            element.pointee = PackedSlot.store(newValue)
            PackedSlot.release(old)
        }
    }
}

extension PackedArray: RangeReplaceableCollection, ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral elements: Value...) { self.init(elements) }

    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Value {
        self.init()
        append(contentsOf: elements)
    }

    @inlinable public mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeUnique(minimumCapacity: minimumCapacity)
    }

    @inlinable public mutating func append(_ value: Value) {
        let count = self.count
        makeUnique(minimumCapacity: count + 1)
        guard let storage else { return }
        storage.withUnsafeMutablePointers { header, elements in
            (elements + count).initialize(to: PackedSlot.store(value))
            header.pointee.count = count + 1
        }
    }

    @inlinable public mutating func append<S: Sequence>(contentsOf values: S) where S.Element == Value {
        reserveCapacity(count + values.underestimatedCount)
        for value in values { append(value) }
    }

    /// Replaces `range` with `newValues`: in place when this array holds
    /// its storage alone and it has room, into a new storage otherwise.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newValues: C)
    where C.Element == Value {
        let count = self.count
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range out of bounds")
        let inserted = newValues.count
        let newCount = count - range.count + inserted
        if newCount == 0 {
            // Everything goes: the storage with it, copied by nobody.
            storage = nil
            return
        }
        makeUnique(minimumCapacity: newCount)
        guard let storage else { return }
        storage.withUnsafeMutablePointers { header, elements in
            // The replaced elements are let go of after the move, so that a
            // deinit they start finds the array consistent.
            // One element (`remove(at:)`) without an array of them.
            let single = range.count == 1 ? elements[range.lowerBound] : nil
            var removed: [UInt64] = []
            if range.count > 1 {
                removed.reserveCapacity(range.count)
                for index in range { removed.append(elements[index]) }
            }
            let tail = count - range.upperBound
            (elements + range.lowerBound + inserted).moveInitialize(from: elements + range.upperBound, count: tail)
            var index = range.lowerBound
            for value in newValues {
                (elements + index).initialize(to: PackedSlot.store(value))
                index += 1
            }
            header.pointee.count = newCount
            if let single { PackedSlot.release(single) }
            for bits in removed { PackedSlot.release(bits) }
        }
    }

    @inlinable public mutating func removeLast() -> Value {
        let last = self[count - 1]
        replaceSubrange((count - 1)..<count, with: EmptyCollection())
        return last
    }

    /// Removes the elements at `indexes` (sorted, without repeats; those
    /// out of range are ignored) in one pass, in place: the kept elements
    /// move down, the removed ones are let go of after (a nested collection
    /// without recursion, through its box).
    public mutating func remove(sortedIndexes indexes: [Int]) {
        guard !indexes.isEmpty, !isEmpty else { return }
        makeUnique(minimumCapacity: count)
        guard let storage else { return }
        var removed: [UInt64] = []
        storage.withUnsafeMutablePointers { header, elements in
            var kept = 0
            var next = 0
            for position in 0..<header.pointee.count {
                while next < indexes.count && indexes[next] < position { next += 1 }
                if next < indexes.count && indexes[next] == position {
                    removed.append(elements[position])
                    continue
                }
                elements[kept] = elements[position]
                kept += 1
            }
            header.pointee.count = kept
        }
        for bits in removed { PackedSlot.release(bits) }
    }

    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        replaceSubrange(0..<count, with: EmptyCollection())
    }
}

extension Value {
    /// An array value from `[Value]`, packed (one pass over `values`): the
    /// callers that build an array element by element in a `[Value]`.
    @inlinable public static func array(_ values: [Value]) -> Value { .array(PackedArray(values)) }
}
