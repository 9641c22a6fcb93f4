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
        settings.repl = .init(marksFile: "/tmp/m", entries: [.init(firstLine: 1, name: "<repl entry 1>")])
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
}
