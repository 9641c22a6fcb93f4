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
/// with three properties in at most 130 MiB): the slots live in the
/// object's own allocation, and a value is 16 bytes.
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
        // 16 (Swift's object header) + 24 (KVOObject's) + 3 × 16, in a
        // 96-byte malloc chunk: 88 usable bytes.
        let usable = mallocUsableSize(Unmanaged.passUnretained(object).toOpaque())
        #expect(usable == 88)
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
