import Testing
import RewriterProtocol

/// The rewriter's text (SPEC §11.0): what it inserts for real code's
/// spellings. How the programs then run is in SwiftSurfaceTests and the
/// goldens.
@Suite struct SwiftRewriterTests {
    static func rewrite(_ source: String) throws -> RewrittenProgram {
        try TestRewriter.rewrite(source, fileName: "f.swift")
    }

    @Test func theUnusedTokenWarningIsForKVOsObserveOnly() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class A: NSObject { @objc dynamic var x = 0 }
            class Watcher: NSObject { func observe(person: A) {} }
            let a = A()
            Watcher().observe(person: a)
            a.observe(\\.x) { _, _ in }
            """)
        #expect(result.warnings.map(\.line) == [6])
    }

    /// `observe(\.key)` inside the class, on `self` without `self.`, learns its
    /// key's name too (Apple's own listing writes it so).
    @Test func observeWithoutAReceiverLearnsItsKey() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class B: NSObject { @objc dynamic var y = 0 }
            class A: NSObject {
                @objc var b = B()
                var token: NSKeyValueObservation?
                func start() { token = observe(\\.b.y, options: [.new]) { _, _ in } }
            }
            """)
        #expect(result.source.contains("token = observe(_kvoKeyPath(\\.b.y, \"b.y\"), options: [.new])"))
    }

    /// `willChange(_:valuesAt:for:)` names its key path in `for:`.
    @Test func keyPathsGivenAsForAreNamed() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class A: NSObject {
                @objc dynamic var items: [Int] = []
                func add() { willChange(.insertion, valuesAt: [0], for: \\.items) }
            }
            """)
        #expect(result.source.contains("for: _kvoKeyPath(\\.items, \"items\")"))
    }

    /// A public class's table is public: an override must be as visible as its class.
    @Test func aPublicClassGetsAPublicTable() throws {
        let result = try Self.rewrite("import Foundation\npublic class A: NSObject {}\nclass B: NSObject {}\n")
        #expect(result.source.contains("public override class func _kvoDescribe"))
        #expect(result.source.components(separatedBy: "    override class func _kvoDescribe").count == 2)
    }

    /// `dynamic` without `@objc` is Swift's own: its assignments do not go
    /// through KVO, and the warning names what is missing.
    @Test func dynamicWithoutObjCIsAPlainProperty() throws {
        let result = try Self.rewrite("import Foundation\nclass A: NSObject {\n    dynamic var x = 0\n}\n")
        #expect(result.source.contains("var x = 0 { willSet { _kvoPlainWill(self, \"x\", missing: \"@objc\") } }"))
        #expect(result.source.contains("objc: false, dynamic: false"))
    }

    /// The stored properties (not computed, static or lazy ones) make the
    /// mirror `dump` shows.
    @Test func storedPropertiesAreListedForTheMirror() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class A: NSObject {
                @objc dynamic var x = 0, y = 1
                let name: String = ""
                var watched = 2 { didSet { } }
                var computed: Int { 3 }
                lazy var cache = 4
                static var shared = 5
            }
            """)
        #expect(
            result.source.contains(
                "table.storedProperties { (o: A) -> [(String, Any)] in [(\"x\", o.x), (\"y\", o.y), (\"name\", o.name), (\"watched\", o.watched)] }"
            ))
    }

    /// `Swift.print` keeps its columns as `_KVOs.print`, the runtime's.
    @Test func swiftPrintIsTheRuntimes() throws {
        let result = try Self.rewrite("import Foundation\nSwift.print(1); Swift.dump(2); Swift.max(1, 2)\n")
        #expect(result.source.contains("_KVOs.print(1); _KVOs.dump(2); Swift.max(1, 2)"))
    }

    /// One-argument methods KVC finds by name are in the table; other
    /// one-argument methods, and labelled ones (whose selectors differ), are not.
    @Test func indexedGettersAndSetterMethodsAreInTheTable() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class A: NSObject {
                @objc func objectInItemsAtIndex(_ index: Int) -> Int { index }
                @objc func setLevel(_ value: Int) {}
                @objc func setName(name: String) {}
                @objc func remove(_ value: Int) {}
            }
            """)
        #expect(
            result.source.contains(
                "table.oneArgument(\"objectInItemsAtIndex\") { (o: A, v) in o.objectInItemsAtIndex(v) }"))
        #expect(result.source.contains("table.oneArgument(\"setLevel\") { (o: A, v) in o.setLevel(v) }"))
        #expect(!result.source.contains("oneArgument(\"setName\")"))
        #expect(!result.source.contains("oneArgument(\"remove\")"))
    }

    /// A static context is named with its type; `self.` adds nothing.
    @Test func contextsThroughAMemberAreNamed() throws {
        let result = try Self.rewrite(
            """
            import Foundation
            class Observer: NSObject {
                private static var context = 0
                private var own = 0
                func start(_ o: NSObject) {
                    o.addObserver(self, forKeyPath: "x", options: [], context: &Observer.context)
                    o.addObserver(self, forKeyPath: "y", options: [], context: &Self.context)
                    o.addObserver(self, forKeyPath: "z", options: [], context: &self.own)
                }
            }
            """)
        #expect(result.source.components(separatedBy: "context: _kvoContext(\"Observer.context\")").count == 3)
        #expect(result.source.contains("context: _kvoContext(\"own\")"))
    }

    /// Two statements on a line: each binding is named, after it and
    /// before the `;` (a name after the `;` made `;;`, which Swift rejects),
    /// and from its creation on (the second statement's pending name goes
    /// before it on the line, the first's on the mark line above).
    @Test func bindingsSharingALineAreEachNamed() throws {
        let result = try Self.rewrite("import Foundation\nclass A: NSObject {}\nlet a = A(); let b = A()\n")
        #expect(result.source.contains("_kvoTopLevel(3, 1, 1); _kvoPendingNames(\"a\", \"A\")\n"))
        #expect(
            result.source.contains(
                "let a = A(); _ = _kvoNamed(a, \"a\"); _kvoPendingNames(\"b\", \"A\"); let b = A(); _ = _kvoNamed(b, \"b\")\n"
            ))
    }

    /// One declaration of several bindings (`let a = A(), b = B()`): each is
    /// named, and each class's first object takes its binding's name.
    @Test func bindingsOfOneDeclarationAreEachNamed() throws {
        let result = try Self.rewrite("import Foundation\nclass A: NSObject {}\nlet a = A(), b = Box<Int>()\n")
        #expect(result.source.contains("_kvoPendingNames(\"a\", \"A\", \"b\", \"Box\")\n"))
        #expect(result.source.contains("let a = A(), b = Box<Int>(); _ = _kvoNamed(a, \"a\"); _ = _kvoNamed(b, \"b\")\n"))
    }

    @Test func importingCombineIsAnErrorAtTheImport() throws {
        let result = try Self.rewrite("import Foundation\nimport Combine\n")
        #expect(result.errors.map { [$0.line, $0.column, $0.length] } == [[2, 8, 7]])
        #expect(result.errors.first?.message.hasPrefix("no such module 'Combine'") == true)
    }
}
