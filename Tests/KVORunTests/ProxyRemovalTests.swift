import _KVOTestSupport
import KVORun
import Testing

/// SPEC §6.3, rule 6 of issue 27: on an array proxy `remove(x)` and
/// `removeAllObjects()` are NSMutableArray's loops over
/// `removeObjectAtIndex:`, one kind-3 notification per removed index,
/// highest index first; a set proxy's `removeAllObjects()` stays one.
@Suite struct ProxyRemovalTests {
    let list = """
        class List { var items: [String] = []; var tags: Set<String> }
        class Watcher { }
        let list = List()
        let w = Watcher()
        list.items = ["a", "b", "a", "c"]
        list.tags = ["x", "y", "z"]
        list.addObserver(w, forKeyPath: "items", options: [.new, .old])
        list.addObserver(w, forKeyPath: "tags", options: [.old])

        """

    @Test func removeSendsOneRemovalPerMatchingIndexHighestFirst() {
        let result = run(list + "list.mutableArrayValue(forKey: \"items\").remove(\"a\")\nprint(list.items)")
        #expect(
            result.out == """
                list.items → w {indexes = (2); kind = 3; old = (a)}
                list.items → w {indexes = (0); kind = 3; old = (a)}
                (b, c)

                """, "\(result)")
    }

    @Test func removeAllObjectsRemovesEachIndexFromTheLast() {
        let result = run(list + "list.mutableArrayValue(forKey: \"items\").removeAllObjects()\nprint(list.items)")
        #expect(
            result.out == """
                list.items → w {indexes = (3); kind = 3; old = (c)}
                list.items → w {indexes = (2); kind = 3; old = (a)}
                list.items → w {indexes = (1); kind = 3; old = (b)}
                list.items → w {indexes = (0); kind = 3; old = (a)}
                ()

                """, "\(result)")
    }

    @Test func aSetProxyStillRemovesEverythingInOneNotification() {
        let result = run(list + "list.mutableSetValue(forKey: \"tags\").removeAllObjects()")
        #expect(result.out == "list.tags → w {kind = 3; old = {(x, y, z)}}\n", "\(result)")
    }

    /// Unobserved, the removals are one pass over the array (no handler
    /// can see the steps). `removeAllObjects()` removed nothing there
    /// between 43052cc and this test: the indexes were taken from the
    /// contents after they were let go of.
    @Test func anUnobservedProxyRemovesInOnePass() {
        let result = run(
            """
            class List { var items: [String] = [] }
            let list = List()
            list.items = ["a", "b", "a", "c"]
            list.mutableArrayValue(forKey: "items").remove("a")
            print(list.items)
            list.mutableArrayValue(forKey: "items").removeAllObjects()
            print(list.items)
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "(b, c)\n()\n", "\(result)")
    }

    @Test func eachStepSeesWhatTheHandlerBeforeItLeft() {
        // A handler that empties the array mid-loop: the next
        // removeObjectAtIndex: is out of range, as NSMutableArray's would be.
        let result = run(
            """
            class List { var items: [String] = [] }
            class Watcher {
                func observeValue(keyPath, object, change, context) {
                    if list.items.count == 2 { list.items = [] }
                }
            }
            let list = List()
            let w = Watcher()
            list.items = ["a", "b", "c"]
            list.addObserver(w, forKeyPath: "items", options: [.old])
            list.mutableArrayValue(forKey: "items").removeAllObjects()
            """)
        #expect(result.status == 1)
        #expect(result.out.hasPrefix("list.items → w {indexes = (2); kind = 3; old = (c)}\n"), "\(result)")
        #expect(result.out.contains("NSRangeException"), "\(result)")
        #expect(result.out.contains("removeObjectAtIndex:]: index 1 beyond bounds"), "\(result)")
    }
}
