import _KVOTestSupport
@testable import KVORun
@testable import KVOOutput
import KVOCore
import KVOScript
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `kvo-run graph`, `kvo-run trace`, `graph(o…)`: valid DOT and SVG that render.
@Suite(.serialized) struct PictureTests {
    let keyPathScenario = """
        class Account { var balance: Double = 0 }
        class Person { var account: Account? }
        class Watcher {
            func observeValue(keyPath, object, change, context) { print("seen <&> \\"it\\"") }
        }
        let first = Account()
        let second = Account()
        let person = Person(account: first)
        let w = Watcher()
        person.addObserver(w, forKeyPath: "account.balance", options: [.new])
        first.balance = 1
        person.account = second
        release(first)
        second.balance = 2
        person.removeObserver(w, forKeyPath: "account.balance")

        """

    /// Whether `text` parses as XML.
    func parsesAsXML(_ text: String) -> Bool {
        let parser = XMLParser(data: Data(text.utf8))
        return parser.parse()
    }

    /// A PNG's pixels, decoded by Python's zlib (8-bit RGB or RGBA, no
    /// interlace, as rsvg-convert writes), has more than one colour.
    func pngIsNotBlank(_ path: String) throws -> Bool {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat, width, height, channels = 8, b'', 0, 0, 4
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                if kind == b'IHDR':
                    width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                    channels = {2: 3, 6: 4}[colour]
                elif kind == b'IDAT':
                    idat += body
                pos += 12 + length
            raw, stride, prev, colours = zlib.decompress(idat), width * channels, bytearray(width * channels), set()
            for y in range(height):
                row = raw[y * (stride + 1):(y + 1) * (stride + 1)]
                kind, line = row[0], bytearray(row[1:])
                for i in range(stride):
                    a = line[i - channels] if i >= channels else 0
                    b = prev[i]
                    c = prev[i - channels] if i >= channels else 0
                    if kind == 1: line[i] = (line[i] + a) & 255
                    elif kind == 2: line[i] = (line[i] + b) & 255
                    elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                    elif kind == 4:
                        p = a + b - c
                        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                for x in range(0, stride, channels * 7):
                    colours.add(bytes(line[x:x + channels]))
                prev = line
            print(len(colours))
            """
        let output = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path], in: nil,
            environment: ProcessInfo.processInfo.environment, timeout: 300
        ).out
        return (Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 1
    }

    func rendersToAPicture(_ svgPath: String, in folder: Folder) throws {
        guard ExternalTool.find("rsvg-convert") != nil, ExternalTool.find("python3") != nil else { return }
        let png = folder.url.appendingPathComponent("out.png").path
        #expect(ExternalTool.run("rsvg-convert", ["--background-color=white", svgPath, "-o", png]) == 0)
        #expect(try pngIsNotBlank(png))
    }

    @Test func theTraceIsValidSVGThatRenders() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        let result = try folder.run(["trace", "kp.kvo", "-o", "kp.svg"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "")
        let svgPath = folder.url.appendingPathComponent("kp.svg").path
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        #expect(parsesAsXML(svg))
        #expect(svg.contains("account.balance {kind = 1; new = 1}"))
        #expect(svg.contains("seen &lt;&amp;&gt; &quot;it&quot;"))
        // Lifelines: the top level and the objects the run's events involve;
        // a key path's notifications come from the observed object, person.
        for name in ["scenario", "person", "w"] {
            #expect(svg.contains(">\(name)</text>"), "no lifeline for \(name)")
        }
        // Issue 29: `first` has a lifeline now, as the object the statement
        // `first.balance = 1` changes (an arrow from the scenario's).
        #expect(svg.contains(">first</text>"))
        #expect(svg.contains(">line 11: first.balance = 1</text>"))
        try rendersToAPicture(svgPath, in: folder)
    }

    @Test func aTraceShowsExceptionsAndStepsInNestedArrows() throws {
        let source = """
            class Account { var balance: Double = 0; var fee: Double = 0 }
            class Bumper {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "balance" { target.fee = 1 }
                }
            }
            let acct = Account()
            let bumper = Bumper(target: acct)
            acct.addObserver(bumper, forKeyPath: "balance", options: [.new])
            acct.addObserver(bumper, forKeyPath: "fee", options: [.new])
            acct.balance = 5
            do { acct.removeObserver(acct, forKeyPath: "nope") } catch { }

            """
        let recorder = PictureOutput(records: true)
        let traced = Session.commandLine(options: RunOptions(), output: recorder)
        #expect(onLargeStack { traced.run(source, file: "t.kvo") } == 0)
        let svg = TraceDiagram.svg(try #require(recorder.trace), title: "t <1>")
        #expect(parsesAsXML(svg))
        // The nested notification: blue, and stepped in.
        #expect(
            svg.contains(
                "fill=\"#1f6fb2\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">"
                    + "fee {kind = 1; new = 1}"))
        #expect(svg.contains("NSRangeException (caught): Cannot remove an observer"))
        #expect(svg.contains("fill=\"#fff3c4\""), "the handler's activation bar")
    }

    @Test func theGraphIsDOTWithEveryKindOfEdge() {
        let source = """
            class Account {
                var balance: Double = 0
                @affectedBy(balance) var net: Double { balance }
            }
            class Person { var account: Account? }
            class Watcher { }
            let acct = Account()
            let gone = Account()
            let person = Person(account: acct)
            let w = Watcher()
            acct.addObserver(w, forKeyPath: "net", options: [.new])
            person.addObserver(w, forKeyPath: "account.balance", options: [.old])
            release(gone)
            graph(person, gone)

            """
        let out = run(source).out
        #expect(out.hasPrefix("digraph kvo {\n"))
        // Issue 29: the edge names its observance as a dump does (person[0])
        // and ends at the observer's header, not on one of its rows.
        #expect(out.contains("n0:k0 -> n2:h [label=\"person[0]: account.balance\\n[old]\"];"))
        #expect(
            out.contains(
                "[style=dotted, color=\"#1f6fb2\", fontcolor=\"#1f6fb2\", "
                    + "label=\"balance, forwarded for person[0] (w)\"];"))
        #expect(out.contains(":w [style=dashed, color=\"#8a5a00\", fontcolor=\"#8a5a00\"];"))
        #expect(out.contains("<B>gone</B>: Account (released)"))
    }

    @Test func graphNeedsObjects() {
        let result = check("graph()\n")
        #expect(result.status == 2)
        #expect(result.err.contains("'graph' takes the objects to draw from, as in 'graph(acct)'"))
        let notObject = run("graph(1)\n")
        #expect(notObject.status == 1)
        #expect(notObject.err.contains("graph(…) takes objects; got Int"))
    }

    @Test func aScenarioFunctionNamedGraphComesFirst() {
        let result = run("func graph(x) { print(\"mine \\(x)\") }\ngraph(3)\n")
        #expect(result.out == "mine 3\n")
    }

    @Test func graphAtALineDrawsThatMoment() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        let early = try folder.run(["graph", "kp.kvo", "--at", "10"])
        #expect(early.status == 0, "\(early)")
        #expect(early.out.contains("balance, forwarded for person[0] (w)"))
        #expect(early.out.contains("<B>first</B>: Account</FONT></TD></TR><TR><TD PORT=\"k0\""))
        let end = try folder.run(["graph", "kp.kvo"])
        #expect(!end.out.contains("forwarded"), "the observer was removed at the end")
        #expect(end.out.contains("<B>first</B>: Account (released)"))
    }

    @Test func graphRendersSVGThroughGraphviz() throws {
        guard ExternalTool.find("dot") != nil else { return }
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        let result = try folder.run(["graph", "kp.kvo", "--at", "10", "-o", "kp.svg"])
        #expect(result.status == 0, "\(result)")
        let svgPath = folder.url.appendingPathComponent("kp.svg").path
        #expect(parsesAsXML(try String(contentsOfFile: svgPath, encoding: .utf8)))
        #expect(!FileManager.default.fileExists(atPath: svgPath + ".tmp.dot"))
        try rendersToAPicture(svgPath, in: folder)
    }

    /// Issue 26: without `dot`, `-o g.svg` wrote g.dot over whatever was
    /// there and exited 0. Now g.svg is left as it was, the DOT goes to g.dot
    /// only when no such file exists, and the status is 1 (no SVG was made).
    @Test func withoutGraphvizGraphWritesDOTAndSaysHowToGetIt() throws {
        let folder = try Folder()
        let saved = ProcessInfo.processInfo.environment["PATH"] ?? ""
        setenv("PATH", folder.url.path, 1)
        defer { setenv("PATH", saved, 1) }
        let target = folder.url.appendingPathComponent("g.svg").path
        #expect(GraphRendering.write("digraph kvo {\n}\n", to: target) == 1)
        let written = try String(contentsOfFile: String(target.dropLast(4)) + ".dot", encoding: .utf8)
        #expect(written == "digraph kvo {\n}\n")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func withoutGraphvizAnExistingDOTAndSVGAreLeftAlone() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        try folder.write("kp.dot", "mine\n")
        try folder.write("kp.svg", "<svg>earlier</svg>\n")
        let result = try folder.run(["graph", "kp.kvo", "-o", "kp.svg"], environment: ["PATH": folder.url.path])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains(
                "kvo-run: Graphviz's 'dot' is not installed, so kp.svg was not drawn (left as it was); "
                    + "kp.dot exists and was left alone"), "\(result)")
        #expect(result.err.contains("apt-get install graphviz"), "\(result)")
        #expect(try folder.read("kp.dot") == "mine\n")
        #expect(try folder.read("kp.svg") == "<svg>earlier</svg>\n")
    }

    /// A `dot` that writes half a picture and fails leaves the earlier SVG in
    /// place: the picture is rendered aside and renamed in only when complete.
    @Test func aFailingGraphvizNeverReplacesTheEarlierPicture() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        try folder.write("kp.svg", "<svg>earlier</svg>\n")
        let fake = try folder.write(
            "bin/dot", "#!/bin/sh\nfor last; do :; done\nprintf '<svg><g' > \"$last\"\nexit 1\n")
        chmod(fake, 0o755)
        let result = try folder.run(
            ["graph", "kp.kvo", "-o", "kp.svg"], environment: ["PATH": folder.url.path + "/bin:/usr/bin:/bin"])
        #expect(result.status == 1, "\(result)")
        #expect(result.err.contains("failed to render it, so kp.svg was not drawn (left as it was)"), "\(result)")
        #expect(try folder.read("kp.svg") == "<svg>earlier</svg>\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["bin", "kp.dot", "kp.kvo", "kp.svg"], "no temporary file left: \(names)")
    }

    /// Issue 26: a noncharacter (U+FFFE, U+FDD0, U+1FFFF, U+10FFFF) in a key
    /// made DOT that Graphviz refused and a trace that was not XML. Both show
    /// it escaped, as `\u{FFFE}`, and stay valid.
    @Test func noncharactersInKeysAreEscapedInGraphAndTrace() throws {
        let key = #"a\u{FFFE}b\u{FDD0}c\u{1FFFF}d\u{10FFFF}\u{1}<'&>"#
        let source = """
            class A { var n: Int = 0 }
            class O { }
            let a = A()
            let o = O()
            a.addObserver(o, forKeyPath: "\(key)", options: [])
            a.willChangeValue(forKey: "\(key)")
            a.didChangeValue(forKey: "\(key)")
            print("p\\u{FFFF}q")

            """
        let folder = try Folder()
        try folder.write("nc.kvo", source)
        let escaped = #"a\u{FFFE}b\u{FDD0}c\u{1FFFF}d\u{10FFFF}\u{1}"#
        let graph = try folder.run(["graph", "nc.kvo"])
        #expect(graph.status == 0, "\(graph)")
        #expect(graph.out.contains(escaped + "&lt;&apos;&amp;&gt;"), "\(graph)")
        #expect(!graph.out.unicodeScalars.contains { XMLText.isNoncharacter($0) }, "\(graph)")
        if ExternalTool.find("dot") != nil {
            let svg = try folder.run(["graph", "nc.kvo", "-o", "nc.svg"])
            #expect(svg.status == 0, "\(svg)")
            #expect(parsesAsXML(try folder.read("nc.svg")))
        }
        let trace = try folder.run(["trace", "nc.kvo", "-o", "t.svg"])
        #expect(trace.status == 0, "\(trace)")
        let text = try folder.read("t.svg")
        #expect(parsesAsXML(text))
        #expect(text.contains(escaped + "&lt;&apos;&amp;&gt; {kind = 1}"), "\(text)")
        #expect(text.contains(#"p\u{FFFF}q"#), "\(text)")
        #expect(!text.unicodeScalars.contains { XMLText.isNoncharacter($0) })
    }

    @Test func xmlTextEscapesEveryNoncharacterAndKeepsReportLines() {
        for value: UInt32 in [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x2FFFF, 0x10FFFE, 0x10FFFF] {
            let scalar = Unicode.Scalar(value)!
            #expect(XMLText.isNoncharacter(scalar), "\(value)")
            #expect(XMLText.escaped("x\(scalar)") == "x\\u{\(String(value, radix: 16, uppercase: true))}")
        }
        for value: UInt32 in [0xFDCF, 0xFDF0, 0xFFFD, 0x1FFFD, 0x10000] {
            #expect(!XMLText.isNoncharacter(Unicode.Scalar(value)!), "\(value)")
        }
        #expect(XMLText.escaped("a\nb\tc\u{1B}") == "a\nb\tc\\u{1B}")
        #expect(XMLText.escaped("a\nb", keepingLineBreaks: false) == "a\\nb")
    }

    // MARK: Issue 29: the pictures answer "in what order" and "why"

    /// The `text` elements of an SVG: their position and text.
    func texts(_ svg: String) -> [(x: Double, y: Double, text: String, anchor: String)] {
        final class Collector: NSObject, XMLParserDelegate {
            var found: [(x: Double, y: Double, text: String, anchor: String)] = []
            var current: (x: Double, y: Double, anchor: String)?
            var text = ""
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                guard name == "text" else { return }
                current = (
                    Double(attributes["x"] ?? "") ?? 0, Double(attributes["y"] ?? "") ?? 0,
                    attributes["text-anchor"] ?? "start"
                )
                text = ""
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
            func parser(
                _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
            ) {
                guard name == "text", let current else { return }
                found.append((current.x, current.y, text, current.anchor))
                self.current = nil
            }
        }
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        return collector.found
    }

    /// The graph's edges carry no registration index, so delivery order
    /// could not be read from it: each is named as a dump names it.
    @Test func graphEdgesNameTheirObservanceAsADumpDoes() throws {
        let folder = try Folder()
        try folder.write(
            "two.kvo",
            """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let first = Person()
            let second = Person()
            acct.addObserver(first, forKeyPath: "balance", options: [.new])
            acct.addObserver(second, forKeyPath: "balance", options: [.new])

            """)
        let result = try folder.run(["graph", "two.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out.contains("n0:k0 -> n1:h [label=\"acct[0]: balance\\n[new]\"];"), "\(result.out)")
        #expect(result.out.contains("n0:k0 -> n2:h [label=\"acct[1]: balance\\n[new]\"];"), "\(result.out)")
        #expect(result.out.contains("a change tells the highest i first"))
        guard ExternalTool.find("dot") != nil else { return }
        let svg = try folder.run(["graph", "two.kvo", "-o", "two.svg"])
        #expect(svg.status == 0, "\(svg)")
        let drawn = texts(try folder.read("two.svg")).map(\.text)
        #expect(drawn.contains("acct[0]: balance") && drawn.contains("acct[1]: balance"), "\(drawn)")
        try rendersToAPicture(folder.url.appendingPathComponent("two.svg").path, in: folder)
    }

    /// The trace's "scenario" lifeline was always empty, and an observer
    /// removed mid-change had no lifeline at all. Now the statement that
    /// caused the change is an arrow from it, what the handler does (a set,
    /// a removal, a registration) comes from the handler's observer, each
    /// notification names its observance, and the delivery not made is drawn.
    @Test func theTraceSaysWhatCausedItAndWhoWasNotTold() throws {
        let folder = try Folder()
        try folder.write(
            "mid.kvo",
            """
            class Account { var balance: Double = 0; var fee: Double = 0 }
            class Person { }
            class Remover {
                var target: Account?
                var victim: Person?
                var late: Person?
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "balance" {
                        target.removeObserver(victim, forKeyPath: "balance")
                        target.addObserver(late, forKeyPath: "balance", options: [.new])
                        target.fee = 1
                    }
                }
            }
            let acct = Account()
            let alice = Person()
            let carol = Person()
            let remover = Remover(target: acct, victim: alice, late: carol)
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.addObserver(remover, forKeyPath: "balance", options: [.new])
            acct.addObserver(remover, forKeyPath: "fee", options: [.new])
            acct.balance = 1   // the change

            """)
        let result = try folder.run(["trace", "mid.kvo", "-o", "mid.svg"])
        #expect(result.status == 0, "\(result)")
        let svg = try folder.read("mid.svg")
        let drawn = texts(svg).map(\.text)
        for expected in [
            "line 22: acct.balance = 1", "balance {kind = 1; new = 1}  (acct[1])",
            "removeObserver(alice, \"balance\"): acct[0] removed", "addObserver(carol, \"balance\"): acct[2]",
            "sets fee", "fee {kind = 1; new = 1}  (acct[1])", "balance: not told (removed mid-change)",
            "balance: not told (registered mid-change, as acct[2])", "alice", "carol",
        ] {
            #expect(drawn.contains(expected), "no \(expected) in \(drawn)")
        }
        #expect(svg.components(separatedBy: "class=\"cause\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "class=\"skipped\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "class=\"removal\"").count - 1 == 1)
        // The arrows in order: the statement, remover told, its removal,
        // registration and set, fee told, then alice and carol not told.
        let order = [
            "line 22", "balance {kind", "removeObserver", "addObserver", "sets fee", "fee {kind",
            "balance: not told (removed", "balance: not told (registered",
        ]
        let positions = order.map { label in drawn.firstIndex { $0.hasPrefix(label) } ?? -1 }
        #expect(positions == positions.sorted() && !positions.contains(-1), "\(positions) in \(drawn)")
        try rendersToAPicture(folder.url.appendingPathComponent("mid.svg").path, in: folder)
    }

    /// A statement that notifies nobody draws no arrow; a statement text
    /// keeps `//` inside a string and drops a trailing comment.
    @Test func statementArrowsOnlyForStatementsThatNotify() throws {
        #expect(TraceDiagram.statementText("  a.s = \"x // y\"  // set it") == "a.s = \"x // y\"")
        let folder = try Folder()
        try folder.write(
            "s.kvo",
            "class A { var x: Int = 0 }\nclass W { }\nlet a = A()\nlet w = W()\na.x = 5\n"
                + "a.addObserver(w, forKeyPath: \"x\", options: [.initial, .new])\n")
        let result = try folder.run(["trace", "s.kvo", "-o", "s.svg"])
        #expect(result.status == 0, "\(result)")
        let drawn = texts(try folder.read("s.svg")).map(\.text)
        #expect(!drawn.contains { $0.hasPrefix("line 5") }, "\(drawn)")
        #expect(drawn.contains("line 6: " + #"a.addObserver(w, forKeyPath: "x", optio…"#), "\(drawn)")
        // Told inside addObserver, before the registration takes effect: no index yet.
        #expect(drawn.contains("x {kind = 1; new = 5}"), "\(drawn)")
    }

    /// Self-observation (most tutorial examples observe `p.account.balance`
    /// from `p`) drew loop labels over each other, and edges to the
    /// observer landed on one of its rows. Each self-observance now goes out
    /// through a point of its own to the header, labels apart.
    @Test func selfObservationIsDrawnWithoutOverlaps() throws {
        let folder = try Folder()
        try folder.write(
            "self.kvo",
            """
            class Account { var balance: Double = 0 }
            class Person {
                var account: Account?
                @affectedBy(account.balance) var rich: Bool { false }
                func observeValue(keyPath, object, change, context) { }
            }
            let acct = Account()
            let p = Person(account: acct)
            p.addObserver(p, forKeyPath: "account.balance", options: [.new])
            p.addObserver(p, forKeyPath: "rich", options: [.new])
            acct.balance = 5

            """)
        let dot = try folder.run(["graph", "self.kvo"])
        #expect(dot.status == 0, "\(dot)")
        #expect(
            dot.out.contains(
                "  n1:k0:e -> s1 [arrowhead=none, label=\"p[0]: account.balance\\n[new]\"];\n  s1 -> n1:h:e;"),
            "\(dot.out)")
        #expect(
            dot.out.contains("  n1:k1:e -> s2 [arrowhead=none, label=\"p[1]: rich\\n[new]\"];\n  s2 -> n1:h:e;"),
            "\(dot.out)")
        // No observance edge ends on the node as a whole, where Graphviz
        // picks any row.
        #expect(dot.out.range(of: #"-> n\d+ \["#, options: .regularExpression) == nil, "\(dot.out)")
        if ExternalTool.find("dot") != nil {
            let result = try folder.run(["graph", "self.kvo", "-o", "self.svg"])
            #expect(result.status == 0, "\(result)")
            // Each text's extent, from its anchor and about 5 px a character
            // (Graphviz's 10 pt edge labels); two texts overlap when they
            // share a line and their extents cross.
            let labels = texts(try folder.read("self.svg")).map { text in
                let width = 5 * Double(text.text.count)
                let left = text.anchor == "middle" ? text.x - width / 2 : text.anchor == "end" ? text.x - width : text.x
                return (text: text.text, y: text.y, left: left, right: left + width)
            }
            for (index, a) in labels.enumerated() {
                for b in labels[(index + 1)...] {
                    let apart = abs(a.y - b.y) >= 9 || a.right <= b.left + 1 || b.right <= a.left + 1
                    #expect(apart, "\(a) and \(b) overlap")
                }
            }
            try rendersToAPicture(folder.url.appendingPathComponent("self.svg").path, in: folder)
        }
        // The trace's self-arrow: its label starts past the loop.
        let trace = try folder.run(["trace", "self.kvo", "-o", "t.svg"])
        #expect(trace.status == 0, "\(trace)")
        let svg = try folder.read("t.svg")
        let loop = try #require(svg.range(of: #"<path d="M [0-9.]+ [0-9.]+ h 28"#, options: .regularExpression))
        let loopX = try #require(Double(svg[loop].dropFirst(11).prefix { $0 != " " }))
        let label = try #require(texts(svg).first { $0.text.hasPrefix("rich {kind") })
        #expect(label.x > loopX + TraceDiagram.loopWidth, "\(label) crosses the loop at \(loopX)")
        try rendersToAPicture(folder.url.appendingPathComponent("t.svg").path, in: folder)
    }

    /// `graph --at LINE` before the first statement that runs drew the end
    /// state; it draws the state at that line: nothing has run yet.
    @Test func graphAtALineBeforeAnythingRanIsEmpty() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", "// a comment first\n\n" + keyPathScenario)
        let early = try folder.run(["graph", "kp.kvo", "--at", "1"])
        #expect(early.status == 0, "\(early)")
        #expect(early.out.hasPrefix("digraph kvo {"))
        #expect(!early.out.contains("<B>"), "no object exists before line 3: \(early.out)")
        let declared = try folder.run(["graph", "kp.kvo", "--at", "7"])
        #expect(!declared.out.contains("<B>"), "classes only, still no object: \(declared.out)")
        let one = try folder.run(["graph", "kp.kvo", "--at", "8"])
        #expect(one.out.contains("<B>first</B>") && !one.out.contains("<B>second</B>"), "\(one.out)")
    }

    @Test func picturesRejectOtherFileKinds() throws {
        let folder = try Folder()
        try folder.write("kp.kvo", keyPathScenario)
        let graph = try folder.run(["graph", "kp.kvo", "-o", "kp.png"])
        #expect(graph.status == 64)
        #expect(graph.err.contains("-o must name a .svg or a .dot file"))
        let trace = try folder.run(["trace", "kp.kvo", "-o", "kp.dot"])
        #expect(trace.status == 64)
        let at = try folder.run(["graph", "kp.kvo", "--at", "0"])
        #expect(at.status == 64)
    }

    @Test func aBrokenScenarioSaysWhyAndDrawsNothing() throws {
        let folder = try Folder()
        try folder.write("bad.kvo", "let a = Acount()\n")
        let result = try folder.run(["trace", "bad.kvo", "-o", "bad.svg"])
        #expect(result.status == 2)
        #expect(result.err.contains("bad.kvo:1:9: error: cannot find 'Acount' in scope"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("bad.svg").path))
    }

    // MARK: Issue 42: labels clear of the activation bars; what holds a token

    /// The elements of an SVG, in order, with their attributes and text.
    func elements(_ svg: String) -> [(name: String, attributes: [String: String], text: String)] {
        final class Collector: NSObject, XMLParserDelegate {
            var found: [(name: String, attributes: [String: String], text: String)] = []
            var open: [Int] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                open.append(found.count)
                found.append((name, attributes, ""))
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) {
                if let last = open.last { found[last].text += string }
            }
            func parser(
                _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
            ) {
                open.removeLast()
            }
        }
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        return collector.found
    }

    struct Box: CustomStringConvertible {
        let what: String
        let left: Double, top: Double, right: Double, bottom: Double
        func meets(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }
        var description: String { "\(what) [\(left)…\(right) × \(top)…\(bottom)]" }
    }

    /// A trace's label boxes (an arrow's text, from its x and y, its anchor,
    /// the font size and the diagram's own estimate of a text's width; a
    /// note's box) and its activation bars, and every label that meets a
    /// bar or another label.
    func traceOverlaps(_ svg: String) -> (labels: [Box], bars: [Box], overlaps: [String]) {
        var labels: [Box] = [], bars: [Box] = []
        func number(_ attributes: [String: String], _ name: String) -> Double { Double(attributes[name] ?? "") ?? 0 }
        for element in elements(svg) {
            let a = element.attributes
            switch (element.name, a["fill"]) {
            case ("rect", "#fff3c4"?):
                let x = number(a, "x"), y = number(a, "y")
                bars.append(
                    Box(what: "bar", left: x, top: y, right: x + number(a, "width"), bottom: y + number(a, "height")))
            case ("rect", "#f3f3f3"?), ("rect", "#fde2e1"?):
                let x = number(a, "x"), y = number(a, "y")
                labels.append(
                    Box(what: "note", left: x, top: y, right: x + number(a, "width"), bottom: y + number(a, "height")))
            case ("text", _) where a["stroke"] == "#ffffff":
                let width = TraceDiagram.textWidth(element.text)
                let x = number(a, "x"), y = number(a, "y")
                let size = Double(a["font-size"] ?? "") ?? TraceDiagram.fontSize
                let left =
                    a["text-anchor"] == "middle" ? x - width / 2 : a["text-anchor"] == "end" ? x - width : x
                labels.append(
                    Box(
                        what: element.text, left: left, top: y - size, right: left + width,
                        bottom: y + TraceDiagram.descent))
            default:
                continue
            }
        }
        var overlaps: [String] = []
        for (index, label) in labels.enumerated() {
            for bar in bars where label.meets(bar) { overlaps.append("\(label) meets \(bar)") }
            for other in labels[(index + 1)...] where label.meets(other) { overlaps.append("\(label) meets \(other)") }
        }
        return (labels, bars, overlaps)
    }

    /// Nested three deep, with long keys, notes inside handlers and a
    /// `.prior` notification: every label was drawn over the bars of the
    /// handlers it crossed.
    static let nestedScenario = """
        class Account {
            var balance: Double = 0
            var fee: Double = 0
            var interestRateForTheLongestNameEver: Double = 0
            var auditTrailEntryWithAVeryLongKeyName: String = ""
        }
        class Bumper {
            var target: Account?
            func observeValue(keyPath, object, change, context) {
                if keyPath == "balance" { target.fee = 1 }
                if keyPath == "fee" {
                    target.interestRateForTheLongestNameEver = 2
                    print("a rather long note printed inside the nested handler, two deep")
                }
            }
        }
        class Auditor {
            var target: Account?
            func observeValue(keyPath, object, change, context) {
                if keyPath == "interestRateForTheLongestNameEver" && change.isPrior == false {
                    target.auditTrailEntryWithAVeryLongKeyName = "the rate changed to a new value"
                }
                print("audit \\(keyPath)")
            }
        }
        class Recorder {
            func observeValue(keyPath, object, change, context) { print("recorded three deep, with a long line of text") }
        }
        let acct = Account()
        let bumper = Bumper(target: acct)
        let auditor = Auditor(target: acct)
        let recorder = Recorder()
        acct.addObserver(bumper, forKeyPath: "balance", options: [.new, .old])
        acct.addObserver(auditor, forKeyPath: "fee", options: [.new, .old])
        acct.addObserver(bumper, forKeyPath: "fee", options: [.new, .old])
        acct.addObserver(auditor, forKeyPath: "interestRateForTheLongestNameEver", options: [.new, .old, .prior])
        acct.addObserver(recorder, forKeyPath: "auditTrailEntryWithAVeryLongKeyName", options: [.new, .old])
        acct.addObserver(acct, forKeyPath: "balance", options: [.new])
        acct.balance = 5

        """

    @Test func traceLabelsStayClearOfActivationBarsAndEachOther() throws {
        let folder = try Folder()
        try folder.write("nest.kvo", Self.nestedScenario)
        let result = try folder.run(["trace", "nest.kvo", "-o", "nest.svg"])
        #expect(result.status == 0, "\(result)")
        let svg = try folder.read("nest.svg")
        #expect(parsesAsXML(svg))
        let drawn = traceOverlaps(svg)
        #expect(drawn.overlaps.isEmpty, "\(drawn.overlaps.joined(separator: "\n"))")
        // Three handlers nested in the first: bars inside bars, and the
        // labels of the notifications they make.
        #expect(drawn.bars.count >= 4, "\(drawn.bars)")
        let nested = drawn.bars.filter { bar in drawn.bars.contains { $0.top < bar.top && $0.bottom >= bar.bottom } }
        #expect(nested.count >= 3, "\(drawn.bars)")
        // The labels measured are the arrows' (a note's box is measured
        // whole); the longest is cut at 100 characters.
        let texts = texts(svg).map(\.text)
        for expected in [
            "auditTrailEntryWithAVeryLongKeyName {kind = 1; new = \"the rate changed to a new value\"; old = \"\"",
            "interestRateForTheLongestNameEver {kind = 1; notificationIsPrior = 1; old = 0}  (acct[3])",
            "a rather long note printed inside the nested handler, two deep",
            "recorded three deep, with a long line of text",
        ] {
            #expect(texts.contains { $0.hasPrefix(expected) }, "no \(expected) in \(texts)")
        }
        #expect(drawn.labels.contains { $0.what.count == TraceDiagram.maxLabel && $0.what.hasSuffix("…") })
        // The same run draws the same picture.
        let again = try folder.run(["trace", "nest.kvo", "-o", "again.svg"])
        #expect(again.status == 0)
        #expect(try folder.read("again.svg") == svg)
        try rendersToAPicture(folder.url.appendingPathComponent("nest.svg").path, in: folder)
    }

    /// A label wider than the widest space between lifelines, beside
    /// handlers nested nine deep: it cannot fit before the next lifeline,
    /// so it moves right past the bars there.
    @Test func aLabelTooWideForItsSpaceMovesPastTheBars() throws {
        let key = "aKeyWhoseNameIsLongEnoughToFillTheWholeLabelOfTheArrowWithoutAnyRoomToSpareAtAll"
        let source = """
            class Account { var \(key): Int = 0 }
            class Counter {
                var target: Account?
                func observeValue(keyPath, object, change, context) {
                    if target.\(key) < 10 { target.\(key) = target.\(key) + 1 }
                }
            }
            let acct = Account()
            let counter = Counter(target: acct)
            acct.addObserver(counter, forKeyPath: "\(key)", options: [.new, .old])
            acct.\(key) = 1

            """
        let recorder = PictureOutput(records: true)
        let traced = Session.commandLine(options: RunOptions(), output: recorder)
        #expect(onLargeStack { traced.run(source, file: "deep.kvo") } == 0)
        let svg = TraceDiagram.svg(try #require(recorder.trace), title: "deep")
        #expect(parsesAsXML(svg))
        let drawn = traceOverlaps(svg)
        #expect(drawn.bars.count == 9, "\(drawn.bars)")
        #expect(drawn.overlaps.isEmpty, "\(drawn.overlaps.joined(separator: "\n"))")
        // Past the bars: the notifications nine and ten deep (100 characters
        // from 150 px right of acct's lifeline) start right of counter's.
        let counterX = try #require(
            elements(svg).first { $0.name == "text" && $0.text == "counter" }.flatMap {
                Double($0.attributes["x"] ?? "")
            })
        #expect(drawn.labels.filter { $0.left > counterX && $0.what.hasPrefix(key) }.count == 2, "\(drawn.labels)")
    }

    /// The checker itself: a label over a bar, and two labels on one line,
    /// are found.
    @Test func theOverlapCheckFindsOverlaps() {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" font-size="12">
            <rect x="100" y="80" width="8" height="100" fill="#fff3c4"/>
            <text x="60" y="120" stroke="#ffffff">over the bar</text>
            <text x="300" y="160" stroke="#ffffff">one label</text>
            <rect x="330" y="145" width="80" height="22" fill="#f3f3f3"/>
            </svg>
            """
        let drawn = traceOverlaps(svg)
        #expect(drawn.overlaps.count == 2, "\(drawn.overlaps)")
        #expect(TraceDiagram.textWidth("ab") == 2 * TraceDiagram.characterWidth)
        #expect(TraceDiagram.textWidth("中😀") == 2 * TraceDiagram.wideCharacterWidth)
    }

    /// Issue 42: tokens kept in arrays were drawn as NSKeyValueObservation#1…
    /// with nothing saying what keeps them. The holder's edge names the
    /// place (`tokens[0]`); a token a top-level array holds is named after it.
    static let heldTokensScenario = """
        class A { var x: Int = 0; var y: Int = 0 }
        class Owner { var tokens: [NSKeyValueObservation] = []; var maybe: NSKeyValueObservation? }
        let a = A()
        let b = A()
        let owner = Owner()
        owner.tokens.append(a.observe(\\.x) { o, c in print("x") })
        owner.maybe = b.observe(\\.y) { o, c in print("y") }
        var tokens: [NSKeyValueObservation] = []
        tokens.append(b.observe(\\.x) { o, c in print("bx") })
        let more = [b.observe(\\.y) { o, c in print("by") }, a.observe(\\.y) { o, c in print("ay") }]
        var token: NSKeyValueObservation? = nil
        token = a.observe(\\.x) { o, c in print("ax") }
        a.x = 1

        """

    /// The node ids of a DOT graph by the names they are headed with.
    func nodeIDs(_ dot: String) -> [String: String] {
        var ids: [String: String] = [:]
        for line in dot.split(separator: "\n") {
            guard let start = line.range(of: "  n"), start.lowerBound == line.startIndex,
                let label = line.range(of: " [label=<"), let bold = line.range(of: "<B>"),
                let end = line.range(of: "</B>")
            else { continue }
            ids[String(line[bold.upperBound..<end.lowerBound])] = String(line[start.upperBound..<label.lowerBound])
        }
        return ids
    }

    func holds(_ dot: String, _ holder: String, _ held: String, _ label: String) -> Bool {
        let ids = nodeIDs(dot)
        guard let from = ids[holder], let to = ids[held] else { return false }
        return dot.contains(
            "  n\(from):h -> n\(to):h [dir=back, arrowtail=diamond, arrowhead=none, color=\"#6b6b6b\", "
                + "fontcolor=\"#6b6b6b\", label=\(label)];")
    }

    @Test func theGraphShowsWhatHoldsEachToken() throws {
        let folder = try Folder()
        try folder.write("held.kvo", Self.heldTokensScenario)
        let result = try folder.run(["graph", "held.kvo"])
        #expect(result.status == 0, "\(result)")
        let dot = result.out
        let ids = nodeIDs(dot)
        #expect(
            Set(ids.keys)
                == [
                    "a", "b", "owner", "tokens[0]", "more[0]", "more[1]", "token", "NSKeyValueObservation#1",
                    "NSKeyValueObservation#2",
                ], "\(ids)")
        #expect(holds(dot, "owner", "NSKeyValueObservation#1", "\"tokens[0]\""), "\(dot)")
        #expect(holds(dot, "owner", "NSKeyValueObservation#2", "\"maybe\""), "\(dot)")
        // The token in owner.tokens[0] observes a.x; the one in tokens[0], b.x.
        #expect(
            dot.contains(
                "  n\(ids["a"] ?? ""):k0 -> n\(ids["NSKeyValueObservation#1"] ?? ""):h [label=\"a[0]: x\\n[]\"];"))
        #expect(
            dot.contains("  n\(ids["b"] ?? ""):k1 -> n\(ids["tokens[0]"] ?? ""):h [label=\"b[1]: x\\n[]\"];"), "\(dot)")
        // The roots: the named objects, then what the variables hold, by name.
        let order = ["a", "b", "owner", "more[0]", "more[1]", "token", "tokens[0]"].map { ids[$0] ?? "" }
        #expect(order == (0..<7).map(String.init), "\(ids)")
        #expect(dot.contains("diamond: holder → object held (property named)"))
        guard ExternalTool.find("dot") != nil else { return }
        let svg = try folder.run(["graph", "held.kvo", "-o", "held.svg"])
        #expect(svg.status == 0, "\(svg)")
        let drawn = texts(try folder.read("held.svg")).map(\.text)
        for expected in ["tokens[0]", "more[1]", "maybe", "NSKeyValueObservation#1", "token"] {
            #expect(drawn.contains(expected), "no \(expected) in \(drawn)")
        }
        try rendersToAPicture(folder.url.appendingPathComponent("held.svg").path, in: folder)
    }

    /// Arrays inside arrays and sets are followed, 4 deep at most.
    @Test func heldObjectsAreFollowedThroughNestedCollectionsBoundedInDepth() {
        let source = """
            class A { var x: Int = 0 }
            class Box { var grid: [[A]] = []; var deep: [[[[[A]]]]] = []; var bag: Set<A> = [] }
            let box = Box()
            box.grid = [[A(), A()], [A()]]
            box.deep = [[[[[A()]]]]]
            box.bag = [A(), A()]
            graph(box)

            """
        let out = run(source).out
        for label in ["grid[0][0]", "grid[0][1]", "grid[1][0]", "bag (set)"] {
            #expect(out.contains("label=\"\(label)\"];"), "no \(label) in \(out)")
        }
        #expect(!out.contains("deep["), "5 deep is not followed: \(out)")
        #expect(!out.contains("A#4"), "\(out)")
    }
}
