import KVOCore
import KVOHost
import KVOScript

/// What a run of a scenario or a Swift program is given: the values of
/// `ScenarioOptions`, as plain fields. QuickStart fills them without the
/// parser: making a `ScenarioOptions` runs its property wrappers'
/// initialisers, whose option names build a Set of ArgumentParser's name
/// type, and the first such Set makes the Swift runtime scan every protocol
/// conformance record of the binary for its Hashable conformance (about half
/// a million instructions of a 10-line scenario's start-up).
public struct ScenarioSettings: Equatable {
    var format = OutputFormatKind.text
    var keepGoing = false
    var noColor = false
    var maxDepth = KVORuntime.defaultMaxDepth
    var maxSteps: Int?
    var quiet = false
    var stats = false
    var explain = false
    var legacyDealloc = false
    var swiftc: String?
    var timeout: Double?

    /// The flags the plainest command line (`kvo-run [run] FILE`) may take
    /// without the parser (`QuickStart`), each at most once, spelled as the
    /// parser spells ScenarioOptions' fields (QuickStartTests runs both ways).
    enum PlainFlag {
        case quiet, stats, keepGoing, noColor
    }

    static func plainFlag(_ name: String) -> PlainFlag? {
        switch name {
        case "--quiet": .quiet
        case "--stats": .stats
        case "--keep-going": .keepGoing
        case "--no-color": .noColor
        default: nil
        }
    }

    /// Turns `flag` on; false when it was on already.
    mutating func turnOn(_ flag: PlainFlag) -> Bool {
        let wasOn: Bool
        switch flag {
        case .quiet: (wasOn, quiet) = (quiet, true)
        case .stats: (wasOn, stats) = (stats, true)
        case .keepGoing: (wasOn, keepGoing) = (keepGoing, true)
        case .noColor: (wasOn, noColor) = (noColor, true)
        }
        return !wasOn
    }

    /// How a Swift program (SPEC §11.0) is compiled and run with these settings.
    var swiftSettings: SwiftProgram.Settings {
        var settings = SwiftProgram.Settings()
        settings.run = self
        settings.color = !noColor && format == .text && Terminal.colorAllowed(descriptor: 1)
        settings.diagnosticColor = !noColor && format == .text && Terminal.colorAllowed(descriptor: 2)
        return settings
    }

    var runOptions: RunOptions {
        var options = RunOptions()
        options.keepGoing = keepGoing
        options.maxDepth = maxDepth
        options.maxSteps = maxSteps ?? Int.max
        options.quiet = quiet
        options.explain = explain
        options.legacyDealloc = legacyDealloc
        if let timeout { options.timeLimit = .init(seconds: timeout, setBy: "--timeout") }
        return options
    }

    /// Standard output and standard error, rendering in the chosen format.
    func makeRenderer() -> EventRenderer {
        EventRenderer.standardStreams(format: format, noColor: noColor)
    }
}
