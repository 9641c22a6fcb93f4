#if canImport(Glibc)
/// glibc's `malloc_usable_size` (in <malloc.h>, which the Glibc module
/// does not export).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif
import Testing
import _KVOTestTraits
@testable import KVOCore

/// What an object and a value cost in memory (issue 31: 1,000,000 objects
/// with three properties in at most 130 MiB; issue 43: GNUstep's): the
/// slots live in the object's own allocation, 8 bytes each, and a value is
/// 16 bytes.
@Suite struct ObjectLayoutTests {
    @Test func aValueIsSixteenBytes() {
        #expect(MemoryLayout<Value>.stride == 16)
        #expect(MemoryLayout<Value?>.stride == 16)
    }

    @Test func anObjectWithThreeStoredPropertiesIsOneSmallAllocation() throws {
        let w = World()
        let point = w.makeClass("Point", [w.stored("x", .int), w.stored("y", .int), w.stored("z", .int)])
        let object = try w.object(point, nil, [("x", .int(1)), ("y", .int(2)), ("z", .int(3))])
        #expect(object.slotCount == 3)
        #expect(object.slots.map { $0 == .int(1) } == [true, false, false])
        #if canImport(Glibc)
        // 16 (Swift's object header) + 16 (KVOObject's two words) + 3 × 8
        // (packed slots), in a 64-byte malloc chunk: 56 usable bytes.
        let usable = mallocUsableSize(Unmanaged.passUnretained(object).toOpaque())
        #expect(usable == 56)
        #endif
    }

    @Test func slotsAreReadAndWrittenInPlace() throws {
        let w = World()
        let point = w.makeClass("Point", [w.stored("x", .int, .int(7)), w.stored("label", .string, .string("a"))])
        let object = try w.object(point)
        #expect(object[slot: 0] == .int(7))
        object[slot: 1] = .string("moved")
        #expect(try w.get(object, "label") == .string("moved"))
        #expect(try w.get(object, "x") == .int(7))
    }

    /// Every kind of value comes back from a slot as it went in: the same
    /// case, and a number's exact bits (`PackedSlot`'s NaN-boxing).
    @Test func everyKindOfValueComesBackFromASlotUnchanged() throws {
        let w = World()
        let holder = w.makeClass("Holder", [w.stored("value", .any)])
        let object = try w.object(holder)
        let other = try w.object(holder, "other")
        let values: [Value] = [
            .null, .bool(true), .bool(false), .int(0), .int(-1), .int((1 << 47) - 1), .int(-(1 << 47)),
            .int(1 << 47), .int(-(1 << 47) - 1), .int(.max), .int(.min), .double(0), .double(-0.0), .double(1.5),
            .double(.infinity), .double(-.infinity), .double(.nan), .double(-.nan),
            .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude),
            // The negative NaNs a slot's tags live among are boxed, bit for bit.
            .double(Double(bitPattern: 0xFFF8_0000_0000_0001)), .double(Double(bitPattern: 0xFFF9_0000_0000_0000)),
            .double(Double(bitPattern: 0xFFFB_0000_0000_0007)), .double(Double(bitPattern: 0xFFFF_FFFF_FFFF_FFFF)),
            .float(2.5), .float(-0.0), .float(.nan), .string(""), .string("e\u{301}"),
            .array([.int(1), .string("x"), .array([])]), .object(other), .option([.new, .old]),
        ]
        for value in values {
            object[slot: 0] = value
            #expect(Self.identical(object[slot: 0], value), "\(value)")
            #expect(Self.identical(object.slots[0], value), "\(value)")
        }
    }

    /// Same case and same bits (`==` equates 1 and 1.0, as NSNumber does).
    static func identical(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
        case (.object(let x), .object(let y)): return x === y
        case (.string, .string), (.array, .array), (.option, .option): return a == b
        default: return false
        }
    }

    @Test func anObjectInASlotIsHeldUntilItIsReplacedOrItsHolderGoes() throws {
        let w = World()
        let holder = w.makeClass("Holder", [w.stored("value", .any)])
        var object: KVOObject? = try w.object(holder)
        weak var first: KVOObject?
        weak var second: KVOObject?
        do {
            let held = try w.object(holder)
            first = held
            object?[slot: 0] = .object(held)
        }
        #expect(first != nil)
        do {
            let made = try w.object(holder)
            second = made
            object?[slot: 0] = .array([.object(made)])
        }
        #expect(first == nil)
        #expect(second != nil)
        object = nil
        #expect(second == nil)
        _ = object
    }

    /// A value kept in a box (a string, an array) leaves it when the slot
    /// is given one that fits; an array read from a slot that is then set
    /// to `.null` has one holder, so appending to it and storing it back
    /// (CollectionMutations) is not a copy each time.
    @Test func boxedValuesLeaveTheirBoxAndArraysGrowWithoutCopies() throws {
        let w = World()
        let holder = w.makeClass("Holder", [w.stored("items", .any)])
        let object = try w.object(holder)
        func isBoxed() -> Bool { object.withUnsafeMutablePointerToElements { PackedSlot.isBox($0[0]) } }
        object[slot: 0] = .array([])
        #expect(isBoxed())
        var storages = Set<ObjectIdentifier?>()
        for index in 0..<1_000 {
            guard case .array(var elements) = object[slot: 0] else { break }
            object[slot: 0] = .null
            elements.append(.int(index))
            storages.insert(elements.identity)
            object[slot: 0] = .array(elements)
        }
        // Doubling from 1 to 1,024 elements: about ten storages, not 1,000.
        #expect(storages.count < 20)
        #expect(object[slot: 0] == .array((0..<1_000).map { .int($0) }))
        object[slot: 0] = .int(3)
        #expect(!isBoxed())
        #expect(object[slot: 0] == .int(3))
    }

    @Test func namesLiveInTheClassTableUntilTheObjectGoes() throws {
        let w = World()
        let account = w.makeClass("Account", [w.stored("balance", .int)])
        var named: KVOObject? = try w.object(account, "acct")
        var unnamed: KVOObject? = try w.object(account)
        #expect(named?.name == "acct")
        #expect(account.objectNames.count == 1)
        // `Class#n` is spelled once, when first shown, and kept.
        #expect(unnamed?.name == "Account#2")
        #expect(account.objectNames.count == 2)
        unnamed?.assignName("renamed")
        #expect(unnamed?.name == "renamed")
        named = nil
        unnamed = nil
        #expect(account.objectNames.isEmpty)
        _ = (named, unnamed)
    }

    /// The serial is split between the header's two words (20 bits and 2),
    /// and past 2^22 − 2 kept in the class's table.
    @Test func serialsSurviveTheirSplitAndOverflow() throws {
        let w = World()
        let point = w.makeClass("Point", [w.stored("x", .int)])
        point.instanceCount = (1 << 20) - 2
        let below = try w.object(point)
        let above = try w.object(point)
        let higher = try w.object(point)
        #expect([below.name, above.name, higher.name] == ["Point#1048575", "Point#1048576", "Point#1048577"])
        point.instanceCount = (1 << 22) - 3
        var last: KVOObject? = try w.object(point)
        var overflowing: [KVOObject]? = [try w.object(point), try w.object(point)]
        #expect(point.largeSerials.count == 2)
        #expect(last?.name == "Point#4194302")
        #expect(overflowing?.map(\.name) == ["Point#4194303", "Point#4194304"])
        last = nil
        overflowing = nil
        #expect(point.largeSerials.isEmpty)
        _ = (last, overflowing)
    }

    /// The header holds its class and its observation info by hand.
    @Test func anObjectHoldsItsClassAndObservationInfoUntilItGoes() throws {
        weak var weakClass: ClassInfo?
        weak var weakInfo: ObservationInfo?
        var object: KVOObject?
        do {
            let w = World()
            let point = w.makeClass("Point", [w.stored("x", .int)])
            weakClass = point
            object = try w.object(point, "p")
            let info = ObservationInfo()
            weakInfo = info
            object?.observationInfo = info
        }
        #expect(weakClass != nil)
        #expect(object?.observationInfo === weakInfo)
        #expect(object?.cls.name == "Point")
        object?.observationInfo = nil
        #expect(weakInfo == nil)
        object?.observationInfo = ObservationInfo()
        #expect(object?.observationInfo != nil)
        object = nil
        #expect(weakClass == nil)
    }

    @Test func aReleasedObjectKeepsItsNameAndSlots() throws {
        let w = World()
        let account = w.makeClass("Account", [w.stored("balance", .int, .int(5))])
        let object = try w.object(account, "acct")
        try w.rt.release(object)
        #expect(object.isReleased)
        #expect(object.name == "acct")
        #expect(object[slot: 0] == .int(5))
    }

    @Test(
        .releaseOnly(
            "a million nested arrays released on the test runner's thread: a debug build's frames overflow its stack (signal 11)"
        ))
    func deeplyNestedArraysInASlotAreFreedWithoutRecursion() throws {
        let w = World()
        let box = w.makeClass("Box", [w.stored("items", .any)])
        var nested = Value.array([])
        for _ in 0..<1_000_000 { nested = .array([nested]) }
        var object: KVOObject? = try w.object(box, nil, [("items", nested)])
        nested = .null
        object = nil
        #expect(object == nil)
    }
}
