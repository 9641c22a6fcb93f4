/// The elements of an array or of a set, read where they are: the walkers
/// that go through nested collections with a stack of their own
/// (descriptions, JSON, mapping, `for … in`) keep one per level, and an
/// array's are decoded only as far as the walk goes (a description stops
/// at its limit).
public enum CollectionElements: RandomAccessCollection {
    case packed(PackedArray)
    case values([Value])

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int {
        switch self {
        case .packed(let elements): return elements.count
        case .values(let elements): return elements.count
        }
    }

    @inlinable public subscript(position: Int) -> Value {
        switch self {
        case .packed(let elements): return elements[position]
        case .values(let elements): return elements[position]
        }
    }
}
