#if canImport(Glibc)
/// glibc's `malloc_usable_size` (in <malloc.h>, which the Glibc module
/// does not export).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif
import Testing
import _KVOTestTraits
@testable import KVOCore

/// An array value's elements, 8 bytes each (`PackedArray`): what they
/// hold comes back unchanged, copies are made only on write, and every
/// way of changing one keeps the others' elements alive.
@Suite struct PackedArrayTests {
    let kinds: [Value] = [
        .null, .bool(true), .bool(false), .int(0), .int(-1), .int(1 << 47), .int(Int.min), .double(-0.0),
        .double(.infinity), .float(1.5), .string("text"), .array([.int(1), .array([.string("in")])]),
        .set(ValueSet([.int(2)])), .option([]), .option([.new, .old, .initial, .prior]),
    ]

    @Test func everyKindOfValueComesBackUnchanged() {
        let array = PackedArray(kinds)
        #expect(array.count == kinds.count)
        for (index, value) in kinds.enumerated() { #expect(array[index] == value) }
        #expect(Array(array) == kinds)
        let literal: PackedArray = [.int(1), .string("two")]
        #expect(literal.values == [.int(1), .string("two")])
    }

    #if canImport(Glibc)
    @Test func elementsAreEightBytesEach() {
        var array = PackedArray()
        for index in 0..<1_000 { array.append(.int(index)) }
        guard let storage = array.storage else {
            Issue.record("no storage")
            return
        }
        // 1,024 elements of 8 bytes after the doubling, and a 32-byte header.
        let usable = mallocUsableSize(Unmanaged.passUnretained(storage).toOpaque())
        #expect(usable >= 8 * 1_000 && usable < 16 * 1_000)
    }
    #endif

    @Test func aCopyIsMadeOnlyWhenASharedArrayChanges() {
        var first: PackedArray = [.string("a"), .int(1)]
        let second = first
        #expect(first.identity == second.identity)
        first[0] = .string("changed")
        #expect(first.identity != second.identity)
        #expect(second.values == [.string("a"), .int(1)])
        #expect(first.values == [.string("changed"), .int(1)])
        let before = first.identity
        first[1] = .int(2)
        #expect(first.identity == before)
    }

    @Test func replacingARangeKeepsTheRestInOrder() {
        var array = PackedArray((0..<6).map { Value.string("s\($0)") })
        array.replaceSubrange(1..<3, with: [.int(10)])
        #expect(array.values == [.string("s0"), .int(10), .string("s3"), .string("s4"), .string("s5")])
        array.insert(.string("front"), at: 0)
        array.insert(contentsOf: [.int(7), .int(8)], at: 3)
        #expect(
            array.values == [
                .string("front"), .string("s0"), .int(10), .int(7), .int(8), .string("s3"), .string("s4"),
                .string("s5"),
            ])
        #expect(array.remove(at: 1) == .string("s0"))
        #expect(array.removeLast() == .string("s5"))
        #expect(array.values == [.string("front"), .int(10), .int(7), .int(8), .string("s3"), .string("s4")])
        let shared = array
        array.removeAll()
        #expect(array.isEmpty)
        #expect(shared.count == 6)
    }

    @Test func sortedIndexesAreRemovedInOnePassInPlace() {
        var array = PackedArray((0..<8).map { Value.string("s\($0)") })
        let shared = array
        array.remove(sortedIndexes: [-1, 0, 3, 4, 7, 9])
        #expect(array.values == [.string("s1"), .string("s2"), .string("s5"), .string("s6")])
        #expect(shared.count == 8)
        let before = array.identity
        array.remove(sortedIndexes: [1])
        #expect(array.identity == before)
        #expect(array.values == [.string("s1"), .string("s5"), .string("s6")])
    }

    @Test func objectsAreHeldUntilTheirElementOrArrayGoes() throws {
        let w = World()
        let point = w.makeClass("Point", [w.stored("x", .int)])
        weak var weakFirst: KVOObject?
        weak var weakSecond: KVOObject?
        var array = PackedArray()
        do {
            let first = try w.object(point)
            let second = try w.object(point)
            weakFirst = first
            weakSecond = second
            array.append(.object(first))
            array.append(.object(second))
        }
        #expect(weakFirst != nil && weakSecond != nil)
        var copy = array
        copy[0] = .null
        #expect(weakFirst != nil)
        array[0] = .int(1)
        #expect(weakFirst == nil)
        array = []
        #expect(weakSecond != nil)
        copy = []
        #expect(weakSecond == nil)
        _ = copy
    }

    /// Disposed, and dropped as Swift drops any value: an element's box
    /// hands its nested array to `Value.dispose`, which loops.
    @Test(
        .releaseOnly(
            "a million nested arrays freed on the test runner's thread: a debug build's frames overflow its stack"))
    func deeplyNestedArraysAreFreedWithoutRecursion() {
        var nested = Value.array([])
        for _ in 0..<1_000_000 { nested = .array([nested, .string("leaf")]) }
        Value.dispose(&nested)
        #expect(nested == .null)
        var dropped = PackedArray()
        for _ in 0..<1_000_000 { dropped = [.array(dropped)] }
        dropped = []
        #expect(dropped.isEmpty)
    }
}
