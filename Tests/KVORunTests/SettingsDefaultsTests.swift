import KVOCore
import KVOOutput
import KVOScript
import Testing

@testable import KVORun

/// Each default of a run is stated once (KVOCore's `KVORuntime` for the
/// limits): the parser's defaults (`ScenarioOptions`, checked against
/// `ScenarioSettings` by QuickStartTests), what a scenario runs with
/// (`RunOptions`) and what a Swift program runs with (`SwiftProgram.Settings`)
/// are the same values.
@Suite struct SettingsDefaultsTests {
    @Test func everyRouteStartsFromTheSameDefaults() throws {
        let parsed = try ScenarioOptions.parse([]).settings
        #expect(parsed.maxDepth == KVORuntime.defaultMaxDepth)
        #expect(KVORuntime(sink: CollectingSink()).maxDepth == KVORuntime.defaultMaxDepth)

        let scenario = parsed.runOptions
        let plain = RunOptions()
        #expect(scenario.maxDepth == plain.maxDepth)
        #expect(scenario.maxSteps == plain.maxSteps)
        #expect(scenario.keepGoing == plain.keepGoing)
        #expect(scenario.quiet == plain.quiet)
        #expect(scenario.explain == plain.explain)
        #expect(scenario.legacyDealloc == plain.legacyDealloc)

        let swift = parsed.swiftSettings
        let plainSwift = SwiftProgram.Settings()
        #expect(swift.maxDepth == plainSwift.maxDepth)
        #expect(swift.format == plainSwift.format)
        #expect(swift.quiet == plainSwift.quiet)
        #expect(swift.explain == plainSwift.explain)
        #expect(swift.keepGoing == plainSwift.keepGoing)
        #expect(swift.legacyDealloc == plainSwift.legacyDealloc)
        #expect(swift.timeout == plainSwift.timeout)
        #expect(swift.swiftc == plainSwift.swiftc)
    }

    /// The settings a compiled program receives survive the trip through its
    /// environment (KVOOutput's `ProgramChannel`, both ends).
    @Test func theChannelCarriesEverySetting() {
        var settings = ProgramChannel.Settings()
        settings.json = true
        settings.color = true
        settings.diagnosticColor = true
        settings.maxDepth = 7
        settings.quiet = true
        settings.explain = true
        settings.keepGoing = true
        settings.legacyDealloc = true
        settings.sourceName = "a b.swift"
        settings.sourcePath = "/tmp/a b.swift"
        settings.trapFile = "/tmp/trap"
        settings.summaryFile = "/tmp/summary"
        settings.picture = .trace(file: "/tmp/p", title: "t")
        settings.repl = .init(
            marksFile: "/tmp/m", entries: [.init(firstLine: 1, name: "<repl entry 1>")], stateFile: "/tmp/s")
        let environment = Dictionary(settings.environment, uniquingKeysWith: { $1 })
        #expect(ProgramChannel.Settings(environment: { environment[$0] }) == settings)
        #expect(ProgramChannel.Settings(environment: { _ in nil }) == ProgramChannel.Settings())
        var graph = ProgramChannel.Settings()
        graph.picture = .graph(file: "/tmp/g", at: 3)
        let graphEnvironment = Dictionary(graph.environment, uniquingKeysWith: { $1 })
        #expect(ProgramChannel.Settings(environment: { graphEnvironment[$0] }) == graph)

        var summary = ProgramChannel.Summary()
        summary.notifications = 3
        summary.objects = 2
        summary.statements = 9
        summary.eventsDrawn = 4
        summary.eventsNotDrawn = 1
        #expect(ProgramChannel.Summary(decoding: summary.encoded) == summary)
        #expect(ProgramChannel.Summary(decoding: "") == nil)
        #expect(ProgramChannel.TrapMark(decoding: "12 5\n").map { [$0.line, $0.column] } == [12, 5])
        #expect(ProgramChannel.TrapMark(decoding: "0 0\n") == nil)
    }

    /// The REPL's state (issue 42) survives the trip from the runtime's file:
    /// objects, classes with their properties, and the graph to the end.
    @Test func theREPLStateComesBackWhole() {
        var state = ProgramChannel.REPLState()
        state.objects = [
            .init(name: "ann", className: "Person", description: "<main.Person: ann>", observances: 2),
            .init(name: "gone", className: "Person", description: "<main.Person: gone>", observances: nil),
        ]
        state.classes = [
            .init(
                name: "Person", superclass: "NSObject", declared: true,
                properties: [
                    .init(name: "name", type: "String", objc: true, dynamic: true),
                    .init(name: "pet", type: "[String: Int]?", objc: false, dynamic: false),
                ]),
            .init(name: "NSObject", superclass: nil, declared: false, properties: []),
        ]
        state.graph = "digraph kvo {\n  n0 [label=\"a\tb\"];\n}\n"
        #expect(ProgramChannel.REPLState(decoding: state.encoded) == state)
        // A field never splits its line: a tab or a newline in it is a space.
        var odd = ProgramChannel.REPLState()
        odd.objects = [.init(name: "o", className: "C", description: "<C:\to\n>", observances: 0)]
        #expect(ProgramChannel.REPLState(decoding: odd.encoded)?.objects.first?.description == "<C: o >")
        // Cut short before the graph: no state.
        #expect(ProgramChannel.REPLState(decoding: "object\tann\tPerson\t<main.Person: ann>\t0\n") == nil)
        #expect(ProgramChannel.REPLState(decoding: "") == nil)
    }
}
