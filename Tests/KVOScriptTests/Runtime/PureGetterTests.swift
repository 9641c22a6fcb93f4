import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// A computed property whose value depends only on its object's stored
/// scalar properties keeps its last value while the object is observed, and
/// a read with nothing stored since returns it without running the body
/// (PureGetter.swift, `DerivedValues`). The output must be what calling the
/// getter every time prints: each scenario here was checked against the
/// build before the values were kept, byte for byte.
@Suite struct PureGetterTests: RunExpectations {
    @Test func everyWayOfStoringMakesTheNextReadRunTheBody() {
        // A store into the instance variable by a method (`_side = 10`), which
        // notifies nobody, must still be seen by the next change's `.old`.
        expectRun(
            """
            class Shape {
                var side: Double = 0
                @affectedBy(side)
                var area: Double { side * side }
                @affectedBy(side)
                var label: String { "side \\(side), area \\(area)" }
                func poke() { _side = 10 }
            }
            class Watcher { }
            let shape = Shape()
            let w = Watcher()
            shape.addObserver(w, forKeyPath: "label", options: [.new, .old])
            shape.addObserver(w, forKeyPath: "area", options: [.new, .old])
            shape.side = 1
            shape.poke()
            shape.side = 3
            shape.setValue(4, forKey: "side")
            shape.setValue(5, forKeyPath: "side")
            shape.willChangeValue(forKey: "label")
            shape.poke()
            shape.didChangeValue(forKey: "label")
            print(shape.label)
            shape.removeObserver(w, forKeyPath: "area")
            shape.side = 6
            print(shape.area)
            """, status: 0,
            out: """
                shape.area → w {kind = 1; new = 1; old = 0}
                shape.label → w {kind = 1; new = "side 1, area 1"; old = "side 0, area 0"}
                shape.area → w {kind = 1; new = 9; old = 100}
                shape.label → w {kind = 1; new = "side 3, area 9"; old = "side 10, area 100"}
                shape.area → w {kind = 1; new = 16; old = 9}
                shape.label → w {kind = 1; new = "side 4, area 16"; old = "side 3, area 9"}
                shape.area → w {kind = 1; new = 25; old = 16}
                shape.label → w {kind = 1; new = "side 5, area 25"; old = "side 4, area 16"}
                shape.label → w {kind = 1; new = "side 10, area 100"; old = "side 5, area 25"}
                side 10, area 100
                shape.label → w {kind = 1; new = "side 6, area 36"; old = "side 10, area 100"}
                36

                """)
    }

    @Test func aGetterThatReadsAGlobalOrAnotherObjectRunsEveryTime() {
        // `scale` and `p.other.factor` change with no store into the observed
        // object: a kept value would give the old `.old`.
        expectRun(
            """
            var scale = 1.0
            class Gauge {
                var level: Double = 0
                var scaled: Double { level * scale }
                @affectedBy(level)
                var reading: Double { scaled + 1 }
                @affectedBy(level)
                var text: String { "\\(level * scale)" }
            }
            class Other { var factor: Double = 2 }
            class Pair {
                var x: Double = 1
                var other: Other = Other()
                @affectedBy(x)
                var product: Double { x * other.factor }
            }
            class Watcher { }
            let g = Gauge()
            let w = Watcher()
            g.addObserver(w, forKeyPath: "reading", options: [.new, .old])
            g.addObserver(w, forKeyPath: "text", options: [.new, .old])
            g.level = 1
            scale = 5
            g.level = 2
            let p = Pair()
            p.addObserver(w, forKeyPath: "product", options: [.new, .old])
            p.x = 2
            p.other.factor = 10
            p.x = 3
            """, status: 0,
            out: """
                g.text → w {kind = 1; new = 1; old = 0}
                g.reading → w {kind = 1; new = 2; old = 1}
                g.text → w {kind = 1; new = 10; old = 5}
                g.reading → w {kind = 1; new = 11; old = 6}
                p.product → w {kind = 1; new = 4; old = 2}
                p.product → w {kind = 1; new = 30; old = 20}

                """)
    }

    @Test func onlyPureGettersThatBuildTextKeepTheirValue() throws {
        let source = """
            var scale = 1.0
            class Item {
                var count: Int = 0
                var price: Double = 2
                var name: String = "tea"
                @affectedBy(count, price)
                var total: String { "\\(price * bonus())" }
                func bonus() -> Double { return 1.5 }
                @affectedBy(count, price)
                var cost: Double { price * 2 + 1 }
                @affectedBy(count)
                var many: Bool { count > 2 && !(count == 7) }
                @affectedBy(cost, many)
                var summary: String { "\\(cost) \\(many) \\(-count)" }
                @affectedBy(count)
                var scaled: String { "\\(price * scale)" }
                @affectedBy(name)
                var title: String { "\\(name)!" }
                @affectedBy(count)
                var loop: String { "\\(loop)" }
                @affectedBy(count)
                var tally: String { "x" + "\\(count)" }
            }
            class Watcher { }
            let item = Item()
            let w = Watcher()
            for key in ["total", "cost", "many", "summary", "scaled", "title", "tally"] {
                item.addObserver(w, forKeyPath: key, options: [.new, .old])
            }
            item.count = 3
            """
        let kept = try keptValues(after: source, object: "item")
        // `cost` and `many` are pure but build no text: computing them is
        // cheaper than keeping them. `total` calls a method, `scaled` reads
        // a global, `title` a stored String (KVC may store any object into
        // one), `loop` itself.
        #expect(kept == ["summary", "tally"])
    }

    @Test func aLongChainOfComputedPropertiesIsJudgedInLinearTime() {
        // Each getter reads the one before: judged pure at most
        // `maxReadDepth` reads deep, each answer kept, so 3,000 properties
        // cost no 4.5 million steps (and no recursion 3,000 deep).
        let count = 3000
        var lines = ["class Chain {", "    var base: Double = 0", "    var p0: Double { base + 1 }"]
        for index in 1..<count {
            lines.append("    @affectedBy(base)")
            lines.append("    var p\(index): Double { p\(index - 1) + 1 }")
        }
        lines += [
            "}", "class Watcher { }", "let chain = Chain()", "let w = Watcher()",
            "chain.addObserver(w, forKeyPath: \"p\(count - 1)\", options: [.new, .old])",
            "chain.base = 1", "chain.base = 2",
        ]
        expectRun(
            lines.joined(separator: "\n"), options: options(maxDepth: 5000), status: 0,
            out: """
                chain.p\(count - 1) → w {kind = 1; new = \(count + 1); old = \(count)}
                chain.p\(count - 1) → w {kind = 1; new = \(count + 2); old = \(count + 1)}

                """)
    }

    @Test func nothingIsKeptForAnUnobservedObject() throws {
        let source = """
            class Shape {
                var side: Double = 2
                var area: Double { side * side }
            }
            let shape = Shape()
            print(shape.area)
            """
        #expect(try keptValues(after: source, object: "shape") == [])
    }

    /// The computed properties of the object bound to `name` that have a
    /// value kept after `source` ran, in declaration order.
    private func keptValues(after source: String, object name: String) throws -> [String] {
        try onLargeStack { () -> Result<[String], RunFailed> in
            let (session, _, err) = capturingSession()
            guard session.run(source, file: "t.kvo") == 0 else {
                return .failure(RunFailed(description: err.capturedText))
            }
            guard let object = session.boundObjects.first(where: { $0.name == name }) else {
                return .failure(RunFailed(description: "no object \(name)"))
            }
            let info = object.observationInfo
            return .success(
                object.cls.properties.filter { info?.derivedValue(for: ObjectIdentifier($0)) != nil }.map(\.name))
        }.get()
    }

    private struct RunFailed: Error, CustomStringConvertible { let description: String }
}
