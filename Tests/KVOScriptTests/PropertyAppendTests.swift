import _KVOTestSupport
import Testing

/// `o.items.append(x)` on a property: the receiver evaluated once, as
/// Swift evaluates it; the array changed in place while nothing observes it
/// (`KVORuntime.appendInPlace`, AppendInPlaceTests), and otherwise read,
/// appended to and set, with the set's notification, `didSet` and type
/// check. The outputs are the ones kvo-run printed before the change in
/// place (d8b6369), apart from the receiver's single evaluation.
@Suite struct PropertyAppendTests {
    let bag = """
        class Bag : NSObject {
            @objc dynamic var items: [Int] = []
            @objc dynamic var levels: [Double] = [1]
            @objc dynamic var names: [String] = [] {
                didSet { print("didSet names", oldValue, "->", names) }
            }
            var log: [Any] = []
            func add(_ n: Int) { items.append(n) }
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

    @Test func anArrayKVCStoredUncheckedIsStillRefusedWhole() {
        let result = run(
            bag + """
                b.setValue(["a"], forKey: "items")
                b.items.append(7)
                """)
        #expect(result.status == 1)
        #expect(result.err.contains("error: cannot store Array (a, 7) in property 'items' of Bag, declared [Int]"))
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
                print(b.items)
                """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "bag\nbag\n(8, 9)\n")
    }
}
