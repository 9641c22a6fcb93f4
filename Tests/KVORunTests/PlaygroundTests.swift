import Foundation
import KVOCore
import Testing
import _KVOTestSupport

@testable import KVORun

/// `kvo-run serve`'s answers, made in-process (`Playground`): what the page
/// shows for a scenario, with the server's limits. ServeTests drives the
/// real server over HTTP.
@Suite(.serialized) struct PlaygroundTests {
    static let firstStep = """
        class Account { var balance: Double = 0 }
        class Person { }
        let acct = Account(balance: 100)
        let alice = Person()
        acct.addObserver(alice, forKeyPath: "balance")
        acct.balance = 200
        acct.balance = 200

        """

    /// The answer's status and its JSON body, decoded.
    func answer(
        _ source: String, line: Int? = nil, graphOnly: Bool = false, limits: PlaygroundLimits = PlaygroundLimits()
    ) throws -> (status: Int, json: [String: Any]) {
        let answer = onLargeStack {
            let playground = Playground(limits: limits)
            return graphOnly ? playground.graph(source: source, line: line) : playground.run(source: source, line: line)
        }
        let object = try JSONSerialization.jsonObject(with: Data(answer.json.utf8))
        let json = try #require(object as? [String: Any], "\(answer.json)")
        return (answer.status, json)
    }

    func explanations(_ json: [String: Any]) -> [Int: String] {
        var byLine: [Int: String] = [:]
        for entry in json["statements"] as? [[String: Any]] ?? [] {
            if let line = entry["line"] as? Int, let text = entry["explain"] as? String { byLine[line] = text }
        }
        return byLine
    }

    @Test func theTutorialsFirstStepShowsItsOutputExplanationsGraphAndTrace() throws {
        let (status, json) = try answer(Self.firstStep, line: 6)
        #expect(status == 200)
        #expect(json["language"] as? String == "scenario")
        #expect(json["status"] as? Int == 0)
        #expect(json["output"] as? String == "acct.balance → alice {kind = 1}\nacct.balance → alice {kind = 1}\n")
        #expect((json["diagnostics"] as? [Any])?.isEmpty == true)
        // Each top-level statement's --explain steps, by its line.
        let explained = explanations(json)
        #expect(explained.keys.sorted() == [3, 4, 5, 6, 7])
        #expect(explained[5]?.hasPrefix("# addObserver: acct[0] registered: alice observes acct.balance") == true)
        let six = try #require(explained[6])
        #expect(six.hasPrefix("# change of acct.balance (kind 1, setting), automatic"), "\(six)")
        #expect(six.hasSuffix("acct.balance → alice {kind = 1}\n"), "\(six)")
        // The graph just after line 6, and the trace of the whole run.
        let graph = try #require(json["graph"] as? [String: Any])
        #expect(graph["line"] as? Int == 6)
        let dot = try #require(graph["dot"] as? String)
        #expect(dot.contains("digraph") && dot.contains("acct") && dot.contains("alice"), "\(dot)")
        if ExternalTool.find("dot") != nil {
            #expect((graph["svg"] as? String)?.contains("<svg") == true)
        } else {
            #expect(graph["svg"] is NSNull)
        }
        let trace = try #require(json["trace"] as? [String: Any])
        let svg = try #require(trace["svg"] as? String)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("balance") && svg.contains("alice"))
    }

    @Test func theGraphIsDrawnAtTheCursorsLine() throws {
        // Before the observer is added (line 4) no observance is drawn;
        // after it (line 5) one is.
        let before = try answer(Self.firstStep, line: 4, graphOnly: true).json
        let after = try answer(Self.firstStep, line: 5, graphOnly: true).json
        let beforeDot = try #require(before["dot"] as? String)
        let afterDot = try #require(after["dot"] as? String)
        #expect(!beforeDot.contains("balance"), "\(beforeDot)")
        #expect(afterDot.contains("balance"), "\(afterDot)")
        #expect(after["line"] as? Int == 5)
    }

    @Test func aScenarioWithErrorsShowsThemAtTheirLines() throws {
        let (status, json) = try answer("let a = 1\nlet x = undefinedName\n")
        #expect(status == 200)
        #expect(json["status"] as? Int == 2)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["severity"] as? String == "error")
        #expect(diagnostics.first?["line"] as? Int == 2)
        #expect(diagnostics.first?["column"] as? Int == 9)
        #expect((diagnostics.first?["message"] as? String)?.contains("undefinedName") == true)
        // The text is the command line's, caret included.
        let output = try #require(json["output"] as? String)
        #expect(output.hasPrefix("scenario.kvo:2:9: error: "), "\(output)")
        #expect(output.contains("        ^~~~~~~~~~~~~"), "\(output)")
        #expect(json["graph"] is NSNull && json["trace"] is NSNull)
    }

    @Test func anUncaughtExceptionHasApplesReasonAndANoteAtItsLine() throws {
        let source = """
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.removeObserver(alice, forKeyPath: "balance")

            """
        let (_, json) = try answer(source)
        let output = try #require(json["output"] as? String)
        #expect(json["status"] as? Int == 1, "\(output)")
        #expect(
            output.hasPrefix(
                "*** Terminating app due to uncaught exception 'NSRangeException', reason: 'Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer.'\nscenario.kvo:5:20: note: "
            ), "\(output)")
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["severity"] as? String == "note")
        #expect(diagnostics.first?["line"] as? Int == 5)
    }

    @Test func aRunawayLoopIsStoppedByTheTimeLimitWithItsMessage() throws {
        var limits = PlaygroundLimits()
        limits.seconds = 0.5
        limits.maxSteps = Int.max
        let start = Date()
        let (status, json) = try answer("var i = 0\nwhile true { i = i + 1 }\n", limits: limits)
        let elapsed = Date().timeIntervalSince(start)
        #expect(status == 200)
        #expect(json["status"] as? Int == 1)
        let output = try #require(json["output"] as? String)
        #expect(
            output.hasPrefix(
                "scenario.kvo:2:1: error: the scenario ran longer than 0.5 s and was stopped (the playground's limit for a request); does a loop never end?"
            ), "\(output)")
        // The request's runs share the limit: the whole answer took about it.
        #expect(elapsed < 5, "took \(elapsed) s")
    }

    @Test func theStepLimitSaysItIsThePlaygrounds() throws {
        var limits = PlaygroundLimits()
        limits.maxSteps = 1000
        let (_, json) = try answer("var i = 0\nwhile true { i = i + 1 }\n", limits: limits)
        let output = try #require(json["output"] as? String)
        #expect(
            output.hasPrefix(
                "scenario.kvo:2:1: error: more than 1000 statements executed; that is the playground's limit: does a loop never end? (kvo-run serve --max-steps N raises it)"
            ), "\(output)")
    }

    @Test func outputPastTheLimitIsCutAndSaysSo() throws {
        var limits = PlaygroundLimits()
        limits.maxOutputBytes = 4096
        let (_, json) = try answer("var i = 0\nwhile i < 100000 { print(\"line \\(i)\"); i = i + 1 }\n", limits: limits)
        let output = try #require(json["output"] as? String)
        #expect(output.hasPrefix("line 0\nline 1\n"))
        #expect(output.utf8.count < 4096 + 200)
        #expect(
            output.hasSuffix("kvo-run: the scenario printed more than 4 KiB; its output was cut there\n"), "\(output)")
    }

    @Test func aSwiftProgramIsRefusedWithoutAllowSwift() throws {
        let source = "import Foundation\nclass A: NSObject { @objc dynamic var x = 0 }\nprint(\"hi\")\n"
        for graphOnly in [false, true] {
            let (status, json) = try answer(source, graphOnly: graphOnly)
            #expect(status == 403)
            #expect((json["error"] as? String)?.contains("--allow-swift") == true, "\(json)")
        }
    }

    @Test func theSwiftDiagnosticsOfAChildAreFoundInItsText() {
        let text =
            "<stdin>:3:5: error: cannot find 'y' in scope\n    y = 1\n    ^\n<stdin>:1:1: warning: unused\nother\n"
        #expect(
            Playground.diagnostics(in: text) == [
                PlaygroundDiagnostic(severity: "error", line: 3, column: 5, message: "cannot find 'y' in scope"),
                PlaygroundDiagnostic(severity: "warning", line: 1, column: 1, message: "unused"),
            ])
    }

    @Test func theExamplesAreTheTutorialsStepsAndTheInstalledFolders() throws {
        let examples = PlaygroundExamples.load(allowSwift: false)
        let titles = examples.groups.map(\.title)
        #expect(titles == ["Tutorial", "The tour", "Apple's KVO guide", "objc.io: KVC and KVO", "--explain"])
        let tutorial = try #require(examples.groups.first)
        #expect(tutorial.examples.first?.title == "1. A first observer")
        #expect(tutorial.examples.first?.source == Self.firstStep)
        #expect(tutorial.examples.contains { $0.title == "4. Reacting: observeValue" })
        // Every scenario example runs without a script error.
        for group in examples.groups {
            for example in group.examples {
                let (_, json) = try answer(example.source)
                #expect(json["status"] as? Int != 2, "\(example.name): \(json["output"] ?? "")")
            }
        }
        let withSwift = PlaygroundExamples.load(allowSwift: true)
        let swift = try #require(withSwift.groups.last)
        #expect(swift.title == "Swift programs")
        #expect(swift.examples.count == PlaygroundExamples.swiftExamples.count)
        // The JSON the page reads.
        let object = try JSONSerialization.jsonObject(with: Data(examples.json(allowSwift: false).utf8))
        let json = try #require(object as? [String: Any])
        #expect(json["allowSwift"] as? Bool == false)
        #expect((json["groups"] as? [Any])?.count == titles.count)
    }

    @Test func anExampleFileIsTitledByItsNumberAndWords() {
        #expect(PlaygroundExamples.title(ofFile: "01_registering_contexts.kvo") == "1. Registering contexts")
        #expect(PlaygroundExamples.title(ofFile: "27_apple_using_kvo_in_swift.swift") == "27. Apple using kvo in swift")
        #expect(PlaygroundExamples.title(ofFile: "tour.kvo") == "Tour")
    }

    @Test func tutorialStepsAreReadFromItsKvoBlocksOnly() {
        let markdown = """
            # Title
            ## 1. One
            ```kvo
            let a = 1
            ```
            ```output
            nothing
            ```
            ```kvo
            let b = 2
            ```
            ## 2. `Two`
            ```swift
            import Foundation
            ```
            ```kvo
            let c = 3

            ```
            """
        let steps = PlaygroundExamples.tutorialSteps(markdown)
        #expect(steps.map(\.title) == ["1. One", "1. One (2)", "2. Two"])
        #expect(steps.map(\.source) == ["let a = 1\n", "let b = 2\n", "let c = 3\n\n"])
        #expect(steps.map(\.name) == ["tutorial/1", "tutorial/2", "tutorial/3"])
    }
}
