import _KVOTestSupport
import Testing

/// `o.items.append(x)`, `o.items[i] = x` and `o.items += xs` on a property: the receiver
/// evaluated once, as Swift evaluates it; the array changed in place while
/// nothing observes it (`KVORuntime.changeArrayInPlace`,
/// ArrayChangeInPlaceTests), and otherwise read, changed and set, with the
/// set's notification, `didSet` and type check. The outputs are the ones
/// kvo-run printed before the change in place (d8b6369), apart from the
/// order of evaluation, now Swift's: the receiver once, the argument before
/// the array is read.
@Suite struct PropertyArrayChangeTests {
    let bag = """
        class Bag : NSObject {
            @objc dynamic var items: [Int] = []
            @objc dynamic var levels: [Double] = [1]
            @objc dynamic var counts: [Int] = [1, 2, 3]
            @objc dynamic var names: [String] = [] {
                didSet { print("didSet names", oldValue, "->", names) }
            }
            var log: [Any] = []
            func add(_ n: Int) { items.append(n) }
            func bump(_ i: Int) { counts[i] = counts[i] + 100 }
        }
        class Watcher : NSObject {
            override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {
                print("observed", keyPath, change)
            }
        }
        let b = Bag()

        """

    @Test func anAppendNotifiesConvertsAndLeavesCopiesAlone() {
        let result = run(
            bag + """
                b.items.append(1)
                b.add(2)
                b.levels.append(2)
                b.names.append("x")
                b.log.append(b.items)
                print(b.items, b.levels, b.names, b.log)
                let w = Watcher()
                b.addObserver(w, forKeyPath: "items", options: [.old, .new], context: nil)
                b.items.append(3)
                b.add(4)
                b.removeObserver(w, forKeyPath: "items")
                b.items.append(5)
                let copy = b.items
                b.items.append(6)
                print(copy, b.items)
                """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.out == """
                didSet names () -> (x)
                (1, 2) (1, 2) (x) ((1, 2))
                b.items → w {kind = 1; new = (1, 2, 3); old = (1, 2)}
                  observed items {kind = 1; new = (1, 2, 3); old = (1, 2)}
                b.items → w {kind = 1; new = (1, 2, 3, 4); old = (1, 2, 3)}
                  observed items {kind = 1; new = (1, 2, 3, 4); old = (1, 2, 3)}
                (1, 2, 3, 4, 5) (1, 2, 3, 4, 5, 6)

                """)
    }

    @Test func anElementSetNotifiesConvertsAndLeavesCopiesAlone() {
        let result = run(
            bag + """
                b.counts[0] = 10
                b.bump(1)
                b.levels[0] = 5
                b.names.append("a")
                b.names[0] = "z"
                b.log.append(1)
                b.log[0] = "x"
                b.counts[2] += 7
                print(b.counts, b.levels, b.names, b.log)
                let w = Watcher()
                b.addObserver(w, forKeyPath: "counts", options: [.old, .new], context: nil)
                b.counts[0] = 11
                b.bump(2)
                b.removeObserver(w, forKeyPath: "counts")
                let copy = b.counts
                b.counts[0] = 12
                print(copy, b.counts)
                """)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.out == """
                didSet names () -> (a)
                didSet names (a) -> (z)
                (10, 102, 10) (5) (z) (x)
                b.counts → w {kind = 1; new = (11, 102, 10); old = (10, 102, 10)}
                  observed counts {kind = 1; new = (11, 102, 10); old = (10, 102, 10)}
                b.counts → w {kind = 1; new = (11, 102, 110); old = (11, 102, 10)}
                  observed counts {kind = 1; new = (11, 102, 110); old = (11, 102, 10)}
                (11, 102, 110) (12, 102, 110)

                """)
    }

    @Test func anElementOutOfRangeOrRefusedIsTheSameError() {
        let outOfRange = run(bag + "b.counts[5] = 1\n")
        #expect(outOfRange.status == 1)
        #expect(outOfRange.err.contains("error: index 5 out of range for an array of 3 elements"), "\(outOfRange.err)")
        let refused = run(bag + "b.levels[0] = \"no\"\n")
        #expect(refused.status == 1)
        #expect(
            refused.err.contains("error: cannot store Array (no) in property 'levels' of Bag, declared [Double]"),
            "\(refused.err)")
    }

    @Test func plusEqualsNotifiesConvertsAndLeavesCopiesAlone() {
        let result = run(
            bag + """
                b.items += [2, 3]
                b.items += b.items
                let copy = b.items
                b.items += [9]
                b.levels += [2, 3]
                b.log += ["x", 1]
                print(b.items, copy, b.levels, b.log)
                let w = Watcher()
                b.addObserver(w, forKeyPath: "items", options: [.old, .new], context: nil)
                b.items += [4]
                b.removeObserver(w, forKeyPath: "items")
                b.levels += [2, "no"]
                """)
        #expect(
            result.out == """
                (2, 3, 2, 3, 9) (2, 3, 2, 3) (1, 2, 3) (x, 1)
                b.items → w {kind = 1; new = (2, 3, 2, 3, 9, 4); old = (2, 3, 2, 3, 9)}
                  observed items {kind = 1; new = (2, 3, 2, 3, 9, 4); old = (2, 3, 2, 3, 9)}

                """)
        #expect(result.status == 1)
        #expect(
            result.err.contains(
                "error: cannot store Array (1, 2, 3, 2, no) in property 'levels' of Bag, declared [Double]"),
            "\(result.err)")
    }

    @Test func anArrayKVCStoredUncheckedIsStillRefusedWhole() {
        let result = run(
            bag + """
                b.setValue(["a"], forKey: "items")
                b.items.append(7)
                """)
        #expect(result.status == 1)
        #expect(result.err.contains("error: cannot store Array (a, 7) in property 'items' of Bag, declared [Int]"))
    }

    /// swiftc 6 prints `[1, 5, 6]` for the same program on a Swift class.
    @Test func theArgumentIsEvaluatedBeforeTheArrayIsRead() {
        let result = run(
            bag + """
                func k() -> Int {
                    b.items.append(5)
                    return 6
                }
                b.items.append(1)
                b.items.append(k())
                print(b.items)
                """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "(1, 5, 6)\n")
    }

    @Test func theReceiverIsEvaluatedOnce() {
        let result = run(
            bag + """
                func bag() -> Bag {
                    print("bag")
                    return b
                }
                bag().items.append(8)
                bag().items.append(9)
                bag().counts[0] = 0
                print(b.items, b.counts)
                """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "bag\nbag\nbag\n(8, 9) (0, 2, 3)\n")
    }
}
