import _KVOTestSupport
import KVORun
import Testing

/// How KVC finds a key, what it stores into object properties, what
/// Foundation's own values answer, and the operators on sets and results
/// (SPEC §4.2 and §5, issue 27 rules 1, 2, 3 and 7).
@Suite struct KVCFidelityTests {
    func expectOutput(
        _ source: String, _ out: String, status: Int32 = 0,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = run(source)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == out, sourceLocation: sourceLocation)
    }

    // MARK: Rule 1: the accessor search

    @Test func valueForKeyTriesGetKeyIsKeyAndUnderscoreKeyMethods() {
        expectOutput(
            """
            class Lamp {
                var label: String = "plain"
                func getTitle() { return "from getTitle" }
                func isLit() { return "from isLit" }
                func _secret() { return "from _secret" }
                func getLabel() { return "getLabel wins" }
                func size() { return 3 }
            }
            let lamp = Lamp()
            print(lamp.value(forKey: "title"))
            print(lamp.value(forKey: "lit"))
            print(lamp.value(forKey: "secret"))
            print(lamp.value(forKey: "label"))
            print(lamp.value(forKey: "size"))
            print(lamp.value(forKeyPath: "title"))
            """,
            "from getTitle\nfrom isLit\nfrom _secret\ngetLabel wins\n3\nfrom getTitle\n")
    }

    @Test func countOfAndObjectInAtIndexGiveAnArrayThatOperatorsWorkOn() {
        expectOutput(
            """
            class Ruler {
                func countOfMarks() { return 3 }
                func objectInMarksAtIndex(i) { return i * 10 }
            }
            let ruler = Ruler()
            print(ruler.value(forKey: "marks"))
            print(ruler.value(forKeyPath: "marks.@count"))
            print(ruler.value(forKeyPath: "marks.@max.self"))
            print(ruler.value(forKeyPath: "marks.@sum.self"))
            """,
            "(0, 10, 20)\n3\n20\n30\n")
    }

    @Test func theIvarsAreReachedThroughUnderscoreKeys() {
        expectOutput(
            """
            class Meter { var level: Int = 4
                var isOpen: Bool = false }
            let m = Meter()
            print(m.value(forKey: "_level"))
            print(m.value(forKey: "open"))
            do { print(m.value(forKey: "_nope")) } catch { print(error.name) }
            """,
            "4\n0\n*** NSUnknownKeyException (caught): [<Meter m> valueForUndefinedKey:]: this class is not key value coding-compliant for the key _nope.\nNSUnknownKeyException\n"
        )
    }

    @Test func setValueThroughTheIvarNotifiesObserversOfThatKeyNotTheProperty() {
        expectOutput(
            """
            class Meter { var level: Int = 4 }
            class Watcher {}
            let m = Meter()
            let w = Watcher()
            m.addObserver(w, forKeyPath: "level", options: [.new, .old])
            m.addObserver(w, forKeyPath: "_level", options: [.new, .old])
            m.setValue(9, forKey: "_level")
            print(m.level)
            """,
            "m._level → w {kind = 1; new = 9; old = 4}\n9\n")
    }

    @Test func setValueWritesTheIsKeyIvarWhenThereIsNoSetter() {
        expectOutput(
            """
            class Door { var isOpen: Bool = false }
            class Watcher {}
            let d = Door()
            let w = Watcher()
            d.addObserver(w, forKeyPath: "open", options: [.new])
            d.setValue(true, forKey: "open")
            print(d.isOpen)
            """,
            "d.open → w {kind = 1; new = 1}\ntrue\n")
    }

    @Test func aSetterMethodIsUsedAndNotifiesObserversOfItsKey() {
        expectOutput(
            """
            class Paint {
                var stored: String = "red"
                func getColor() { return stored }
                func setColor(v) { _stored = v }
            }
            class Watcher {}
            let p = Paint()
            let w = Watcher()
            p.addObserver(w, forKeyPath: "color", options: [.new, .old])
            p.setValue("blue", forKey: "color")
            p.setColor("green")
            print(p.value(forKey: "color"))
            """,
            "p.color → w {kind = 1; new = blue; old = red}\np.color → w {kind = 1; new = green; old = blue}\ngreen\n"
        )
    }

    @Test func aManualKeyReachedThroughASetterMethodDoesNotNotify() {
        expectOutput(
            """
            class Paint {
                var stored: String = "red"
                func getColor() { return stored }
                func setColor(v) { _stored = v }
                static func automaticallyNotifiesObservers(key) { return key != "color" }
            }
            class Watcher {}
            let p = Paint()
            let w = Watcher()
            p.addObserver(w, forKeyPath: "color", options: [.new])
            p.setValue("blue", forKey: "color")
            print(p.value(forKey: "color"))
            """,
            "blue\n")
    }

    @Test func anObservedKeyReadThroughGetKeyGivesOldAndNewFromTheSearch() {
        expectOutput(
            """
            class Gauge {
                var raw: Int = 1
                func getLevel() { return raw * 100 }
                @affectedBy(raw) var level: Int { raw }
            }
            class Watcher {}
            let g = Gauge()
            let w = Watcher()
            g.addObserver(w, forKeyPath: "level", options: [.new, .old])
            g.raw = 2
            """,
            "g.level → w {kind = 1; new = 200; old = 100}\n")
    }

    @Test func theCheckerAcceptsKeysTheSearchFinds() {
        let result = check(
            """
            class Gauge {
                var raw: Int = 1
                func getTitle() { return "t" }
                func isReady() { return true }
                func countOfMarks() { return 2 }
                func objectInMarksAtIndex(i) { return i }
                @affectedBy(title, ready, marks, _raw) var summary: String { "s" }
            }
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.err == "", "\(result)")
        let rejected = check(
            """
            class Gauge {
                func countOfMarks() { return 2 }
                @affectedBy(marks) var summary: String { "s" }
            }
            """)
        #expect(rejected.status != 0, "\(rejected)")
        #expect(rejected.err.contains("'marks' in @affectedBy is not a property of 'Gauge'"), "\(rejected)")
    }

    // MARK: Rule 2: no coercion into object properties

    @Test func setValueStoresAnyValueIntoAnObjectPropertyAsItIs() {
        expectOutput(
            """
            class Person { var name: String = "Ann"
                var friend: Person?
                var total: Double = 0 }
            class Watcher {}
            let p = Person()
            let w = Watcher()
            p.addObserver(w, forKeyPath: "name", options: [.new, .old])
            p.setValue(5, forKey: "name")
            print(p.name)
            print(p.value(forKey: "name"))
            print("\\(p.name)")
            p.setValue(7, forKey: "friend")
            print(p.friend)
            p.setValue("12.5abc", forKey: "total")
            print(p.total)
            """,
            "p.name → w {kind = 1; new = 5; old = Ann}\n5\n5\n5\n7\n12.5\n")
    }

    @Test func aStoredNumberInAnObjectPropertyFailsLaterUsesWithoutCrashing() {
        let result = run(
            """
            class Box { var items: [String] }
            let b = Box()
            b.setValue(3, forKey: "items")
            print(b.items)
            b.mutableArrayValue(forKey: "items").add("x")
            """)
        #expect(result.status == 1, "\(result)")
        #expect(result.out == "3\n")
        #expect(result.err.contains("is not an array"), "\(result)")
    }
}
