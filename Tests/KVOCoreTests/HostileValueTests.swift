import Testing
import _KVOTestTraits
@testable import KVOCore

/// Issue 15: values' equality, hashing and sets under hostile shapes, and the
/// work meter that lets the interpreter stop long primitives.
@Suite struct HostileValueTests {
    @Test func intConversionRejectsEveryDoubleOutsideInt() {
        #expect(Value.int(exactlyTruncating: 9.25e18) == nil)
        #expect(Value.int(exactlyTruncating: 9223372036854775808.0) == nil)
        #expect(Value.int(exactlyTruncating: -9223372036854777856.0) == nil)
        #expect(Value.int(exactlyTruncating: .nan) == nil)
        #expect(Value.int(exactlyTruncating: -.infinity) == nil)
        #expect(Value.int(exactlyTruncating: -9223372036854775808.0) == Int.min)
        #expect(Value.int(exactlyTruncating: 9223372036854774784.0) == 9223372036854774784)
        #expect(Value.int(exactlyTruncating: -2.5) == -2)
    }

    @Test func intsCompareExactlyAndNumbersAcrossKinds() {
        #expect(Value.int(Int.max) != Value.int(Int.max - 1))
        #expect(Value.int(1) == Value.double(1))
        #expect(Value.bool(true) == Value.int(1))
        #expect(Value.double(.nan) != Value.double(.nan))
        #expect(Value.isMember(.double(.nan), .double(.nan)))
    }

    @Test func equalValuesHashAlike() {
        let pairs: [(Value, Value)] = [
            (.int(1), .double(1)), (.bool(false), .int(0)), (.double(0), .double(-0.0)),
            (.double(.nan), .double(-.nan)),
            (.array([.int(1), .array([.double(2)])]), .array([.double(1), .array([.int(2)])])),
            (.set(ValueSet([.int(1), .string("a")])), .set(ValueSet([.string("a"), .double(1)]))),
        ]
        for (a, b) in pairs {
            #expect(Value.isMember(a, b), "\(a) \(b)")
            #expect(a.hashValue == b.hashValue, "\(a) \(b)")
        }
    }

    /// `a = [a, a]` forty times, twice: 2^40 leaves each, compared once per
    /// distinct array (this did not finish).
    @Test func selfDoublingArraysCompareInLinearTime() {
        var a = Value.array([.int(1)]), b = Value.array([.int(1)])
        for _ in 0..<40 {
            a = .array([a, a])
            b = .array([b, b])
        }
        #expect(a == b)
        var c = Value.array([.int(2)])
        for _ in 0..<40 { c = .array([c, c]) }
        #expect(a != c)
    }

    @Test(
        .releaseOnly(
            "millions of nested arrays compared and released on the test runner's thread: a debug build's frames overflow its stack (signal 11)"
        ))
    func deepArraysCompareAndReleaseWithoutRecursion() {
        var a = Value.array([]), b = Value.array([])
        for _ in 0..<1_000_000 {
            a = .array([a])
            b = .array([b])
        }
        #expect(a == b)
        Value.dispose(&a)
        Value.dispose(&b)
        // A set holding a deep array is taken apart too.
        var c = Value.array([])
        for _ in 0..<1_000_000 { c = .array([c]) }
        var set = Value.set(ValueSet([c, .int(1)]))
        Value.dispose(&c)
        Value.dispose(&set)
        #expect(set == .null)
    }

    @Test func largeSetsKeepInsertionOrderAndFindByHash() {
        var set = ValueSet()
        for i in 0..<100_000 { set.insert(.int(i % 50_000)) }
        #expect(set.count == 50_000)
        #expect(Array(set.elements.prefix(3)) == [.int(0), .int(1), .int(2)])
        #expect(set.contains(.double(49_999)))
        let removed = set.remove(.int(7))
        #expect(removed)
        #expect(!set.contains(.int(7)))
        #expect(set.contains(.int(8)))
        set.subtract(ValueSet((0..<25_000).map { Value.int($0) }))
        #expect(set.count == 25_000)
        #expect(set.elements.first == .int(25_000))
    }

    @Test func setsKeepOneNaN() {
        let set = ValueSet([.double(.nan), .double(.nan), .double(1), .double(-.nan)])
        #expect(set.count == 2)
        var large = ValueSet((0..<20).map { Value.int($0) })
        large.insert(.double(.nan))
        large.insert(.double(.nan))
        #expect(large.count == 21)
    }

    @Test func workMeterCallsItsHookOncePerChunk() throws {
        let meter = WorkMeter()
        var chunks = 0
        meter.onChunk = { chunks += $0 }
        for _ in 0..<(WorkMeter.chunk * 3) { try meter.charge() }
        #expect(chunks == 3)
        try meter.charge(WorkMeter.chunk * 5)
        #expect(chunks == 8 || chunks == 9)
    }

    struct Stop: Error {}

    @Test func meteredEqualityStopsWhenTheHookThrows() {
        let meter = WorkMeter()
        meter.onChunk = { _ in throw Stop() }
        let big = Value.array((0..<100_000).map { .int($0) })
        let copy = Value.array((0..<100_000).map { .int($0) })
        #expect(throws: Stop.self) { try Value.equal(big, copy, meter: meter) }
        #expect(throws: Stop.self) { try big.printDescription(meter: meter) }
    }
}
