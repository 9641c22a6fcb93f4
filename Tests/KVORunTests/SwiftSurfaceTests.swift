import Foundation
import Testing
@testable import KVORun

/// Apple's KVO and Foundation surface that real Swift code reaches for
/// (issue 28's "run as found"), each compiled and run as a program: what it
/// prints is what a Mac prints (SPEC §11.0). Whole programs from real
/// sources are the goldens in scenarios/swift/; these pin one behaviour each.
@Suite(.serialized) struct SwiftSurfaceTests {
    static func run(_ source: String) -> (text: String, status: Int32) {
        SwiftProgramTests.run(source)
    }

    /// NSKeyValueObservingCustomization answers for the key `observe` is
    /// registering, as the overlay's key-path bridge makes it on a Mac; a key
    /// registered with `addObserver` gets NSObject's answers.
    @Test func keyPathCustomizationAnswersForTheKeyObserveRegisters() {
        let result = Self.run(
            """
            import Foundation
            class Person: NSObject, NSKeyValueObservingCustomization {
                @objc dynamic var first = "Ann"
                @objc dynamic var quiet = 0
                @objc var full: String { first + "!" }
                static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath> {
                    key == \\Person.full ? [\\Person.first] : []
                }
                static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool {
                    print("asked", key == \\Person.quiet ? "quiet" : "other")
                    return key != \\Person.quiet
                }
            }
            let p = Person()
            let full = p.observe(\\.full, options: [.new]) { _, change in print("full", change.newValue!) }
            let quiet = p.observe(\\.quiet) { _, _ in print("never") }
            p.first = "Bo"
            p.quiet = 1
            """)
        #expect(result.status == 0)
        #expect(
            result.text == """
                program.swift:15:22: warning: passing reference to non-'@objc dynamic' property 'full' to KVO method 'observe(_:options:changeHandler:)' may lead to unexpected behavior or runtime trap
                let full = p.observe(\\.full, options: [.new]) { _, change in print("full", change.newValue!) }
                                     ^~~~~~
                asked other
                asked quiet
                p.full → full {kind = 1; new = "Bo!"}
                  full Bo!

                """)
    }

    /// Objective-C's associated objects: kept as long as their object, then
    /// released; an `ASSIGN` value is not retained.
    @Test func associatedObjectsLiveAsLongAsTheirObject() {
        let result = Self.run(
            """
            import Foundation
            var key = 0
            var weakKey = 0
            class Tag { let name: String; init(_ name: String) { self.name = name }; deinit { print("free", name) } }
            class Model: NSObject {}
            var model: Model? = Model()
            objc_setAssociatedObject(model!, &key, Tag("kept"), .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            var loose: Tag? = Tag("loose")
            objc_setAssociatedObject(model!, &weakKey, loose, .OBJC_ASSOCIATION_ASSIGN)
            print((objc_getAssociatedObject(model!, &key) as? Tag)?.name ?? "none")
            loose = nil
            print(objc_getAssociatedObject(model!, &weakKey) == nil)
            print(NSStringFromSelector(Selector(("tokens"))))
            model = nil
            print("end")
            """)
        #expect(result.status == 0)
        #expect(result.text == "kept\nfree loose\ntrue\ntokens\nfree kept\nend\n")
    }

    /// An NSNumber that KVC hands Swift as `Any` interpolates as on a Mac
    /// (`%0.16g`), in strings as in `print`; other values as Swift's own.
    @Test func bridgedNumbersInterpolateAsOnAMac() {
        let result = Self.run(
            """
            import Foundation
            class Loan: NSObject { @objc dynamic var rate = 0.07; @objc dynamic var open = true }
            let loan = Loan()
            let rate = loan.value(forKey: "rate")!
            print("rate \\(rate) \\(loan.value(forKey: "open")!) \\(loan.value(forKey: "rate"))")
            print(String(describing: rate), String(describing: loan.value(forKey: "rate")))
            print("\\(0.07) \\(Optional(2)) \\([1.5])")
            """)
        #expect(result.status == 0)
        #expect(
            result.text
                == "rate 0.07000000000000001 1 Optional(0.07000000000000001)\n0.07000000000000001 Optional(0.07000000000000001)\n0.07 Optional(2) [1.5]\n"
        )
    }

    /// `dump` of an NSObject subclass shows its stored properties over
    /// `super: NSObject`, as Swift's reflection does on a Mac, through the
    /// trace's print events.
    @Test func dumpShowsStoredPropertiesOverNSObject() {
        let result = Self.run(
            """
            import Foundation
            class Base: NSObject { @objc dynamic var id = 1; var computed: Int { 2 } }
            class Item: Base { let name = "pen"; weak var owner: Base? }
            let item = Item()
            dump(item)
            """)
        #expect(result.status == 0)
        #expect(
            result.text == """
                ▿ <main.Item: item> #0
                  ▿ super: main.Base
                    - super: NSObject
                    - id: 1
                  - name: "pen"
                  - owner: nil

                """)
    }

    /// Values KVO carries that the engine has no case for (a Date) come back
    /// typed in `change.newValue`; an `@objc enum` is its raw value inside KVO,
    /// so its typed values are nil, as on a Mac (SR-5872).
    @Test func datesComeBackTypedAndObjCEnumsAsTheirRawValue() {
        let result = Self.run(
            """
            import Foundation
            @objc enum Phase: Int { case idle, busy }
            class Job: NSObject {
                @objc dynamic var due = Date(timeIntervalSince1970: 0)
                @objc dynamic var phase = Phase.idle
            }
            let job = Job()
            let a = job.observe(\\.due, options: [.new]) { _, change in print(change.newValue!.timeIntervalSince1970) }
            let b = job.observe(\\.phase, options: [.new, .old]) { _, change in print(change.newValue as Any) }
            job.due = Date(timeIntervalSince1970: 60)
            job.phase = .busy
            """)
        #expect(result.status == 0)
        #expect(
            result.text == """
                job.due → a {kind = 1; new = "1970-01-01 00:01:00 +0000"}
                  60.0
                job.phase → b {kind = 1; new = 1; old = 0}
                  nil

                """)
    }

    /// KVC's search finds `countOf<Key>()` with `objectIn<Key>AtIndex(_:)`
    /// (an indexed getter) and `set<Key>(_:)` methods, not only properties.
    @Test func kvcFindsIndexedGettersAndSetterMethods() {
        let result = Self.run(
            """
            import Foundation
            class Playlist: NSObject {
                var storage = ["a", "b"]
                var level = 0
                @objc func countOfSongs() -> Int { storage.count }
                @objc func objectInSongsAtIndex(_ index: Int) -> Any { storage[index] }
                @objc func setVolume(_ value: Int) { level = value }
            }
            let playlist = Playlist()
            print(playlist.value(forKey: "songs") as! [String])
            playlist.setValue(7, forKey: "volume")
            print(playlist.level)
            """)
        #expect(result.status == 0)
        #expect(result.text == "[\"a\", \"b\"]\n7\n")
    }

    /// Contexts as Swift code makes them: a static variable's address, and an
    /// allocated pointer the program keeps. `observeValue` gets back the very
    /// pointer it registered with; the trace names an allocated one by its
    /// order of first use (a Mac prints its address).
    @Test func contextsReachObserveValueAsRegistered() {
        let result = Self.run(
            """
            import Foundation
            class Model: NSObject { @objc dynamic var x = 0 }
            class Watcher: NSObject {
                private static var context = 0
                private let other = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
                let model = Model()
                override init() {
                    super.init()
                    model.addObserver(self, forKeyPath: "x", options: [], context: &Watcher.context)
                    model.addObserver(self, forKeyPath: "x", options: [], context: other)
                }
                override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                                           change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    if context == &Watcher.context { print("static") } else if context == other { print("allocated") }
                }
            }
            let watcher = Watcher()
            watcher.model.x = 1
            """)
        #expect(result.status == 0)
        #expect(
            result.text == """
                Model#1.x → watcher {kind = 1} context: context#1
                  allocated
                Model#1.x → watcher {kind = 1} context: Watcher.context
                  static

                """)
    }

    /// Swift's hashing and `==` of an NSObject are its `hash` and `isEqual`.
    @Test func nsObjectHashingIsItsHashAndIsEqual() {
        let result = Self.run(
            """
            import Foundation
            class Value: NSObject {
                let x: Int
                init(_ x: Int) { self.x = x }
                override func isEqual(_ object: Any?) -> Bool { (object as? Value)?.x == x }
                override var hash: Int { x }
            }
            var seen: [Value: String] = [Value(1): "one"]
            print(seen[Value(1)] ?? "missing", Value(2) == Value(2), Set([Value(3), Value(3)]).count)
            print(Value(1).isProxy(), Value(1).`self`().x)
            // NSObject's own hash stands in for an address: the object's number, the same every run.
            print(NSObject().hash + 1 == NSObject().hash)
            """)
        #expect(result.status == 0)
        #expect(result.text == "one true 1\nfalse 1\ntrue\n")
    }

    /// `Swift.print` in a class with its own `print` method prints through
    /// the trace, indented in a handler like any print.
    @Test func swiftPrintIsATracePrint() {
        let result = Self.run(
            """
            import Foundation
            class Meter: NSObject {
                @objc dynamic var level = 0
                func print() { Swift.print("level", level) }
            }
            let meter = Meter()
            let token = meter.observe(\\.level) { meter, _ in meter.print() }
            meter.level = 3
            """)
        #expect(result.status == 0)
        #expect(result.text == "meter.level → token {kind = 1}\n  level 3\n")
    }

    /// `dynamic` without `@objc` is Swift's own dynamic: KVC cannot see the
    /// property and assigning it notifies nobody (Swift 5 on a Mac).
    @Test func dynamicWithoutObjCDoesNotNotify() {
        let result = Self.run(
            """
            import Foundation
            class Model: NSObject { dynamic var value = "a" }
            class Watcher: NSObject {
                override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                                           change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    print("heard")
                }
            }
            let model = Model()
            let watcher = Watcher()
            model.addObserver(watcher, forKeyPath: "value", options: [.new], context: nil)
            model.value = "b"
            print(model.value)
            """)
        #expect(result.status == 0)
        #expect(
            result.text == """
                program.swift:12:1: warning: 'value' is not @objc: this assignment bypasses KVO; declare it '@objc dynamic var value'
                model.value = "b"
                ^
                b

                """)
    }

    /// A public class (as library code is written) compiles: its KVC table
    /// is as visible as the class.
    @Test func publicClassesCompile() {
        let result = Self.run(
            """
            import Foundation
            public final class Counter: NSObject {
                @objc public dynamic var count = 0
            }
            open class Base: NSObject { @objc open dynamic var name = "" }
            let counter = Counter()
            counter.setValue(2, forKey: "count")
            print(counter.count, Base().name.isEmpty)
            """)
        #expect(result.status == 0)
        #expect(result.text == "2 true\n")
    }

    /// Apple's `NSDate.addingTimeInterval` returns `Self`: Apple's own KVO
    /// listing assigns it to an `NSDate` property.
    @Test func nsDateAddingTimeIntervalIsAnNSDate() {
        let result = Self.run(
            """
            import Foundation
            var date = NSDate(timeIntervalSince1970: 0)
            date = date.addingTimeInterval(Double(2 << 30))
            let later = date.addingTimeInterval(1)
            print(date, later)
            """)
        #expect(result.status == 0)
        #expect(result.text == "2038-01-19 03:14:08 +0000 2038-01-19 03:14:09 +0000\n")
    }

    /// Combine does not exist on Linux: one error at the import that says
    /// what to write instead, and nothing is compiled.
    @Test func importingCombineSaysWhatToUseInstead() {
        let result = Self.run("import Foundation\nimport Combine\nprint(1)\n")
        #expect(result.status == 2)
        #expect(
            result.text == """
                program.swift:2:8: error: no such module 'Combine': Combine is Apple's and Linux has none; observe with 'observe(\\.key, options: [.initial, .new]) { object, change in … }', the KVO that 'publisher(for:)' wraps on a Mac
                import Combine
                       ^~~~~~~

                """)
    }
}
