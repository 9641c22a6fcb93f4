import ArgumentParser
import KVOHost
import KVOScript

/// Options shared by the commands that run scenarios.
public struct ScenarioOptions: ParsableArguments {
    public init() {}

    @Option(help: "Output format: text or json.")
    var format = OutputFormatKind.text

    @Flag(help: "After an uncaught exception or runtime error, report it and go on with the next top-level statement.")
    var keepGoing = false

    @Flag(help: "Never colour the output (also: NO_COLOR set in the environment).")
    var noColor = false

    // .unconditional: the value is taken even when it starts with '-', so
    // that '--max-depth -1' is told what is wrong with -1 (the parser said
    // "Missing value for '--max-depth'").
    @Option(parsing: .unconditional, help: "Deepest nesting of notifications and method calls.")
    var maxDepth = ScenarioOptions.defaultMaxDepth
    static let defaultMaxDepth = 1000
    /// The deepest `--max-depth` accepted: deeper nesting would overflow even
    /// the large stack the engine runs on.
    static let maxDepthCeiling = 100_000

    @Option(parsing: .unconditional, help: "Most statements executed before the run stops (default: unlimited).")
    var maxSteps: Int?

    @Flag(help: "Count notifications instead of printing them (prints, exceptions and errors still appear).")
    var quiet = false

    @Flag(help: "End with one line on standard error: notifications, objects, statements, wall time.")
    var stats = false

    @Flag(help: "Explain each step of the KVO machinery as '#' lines (JSON: explain events); see docs/explain.md.")
    var explain = false
    @Flag(help: "Releasing an observed object raises NSInternalInconsistencyException (Apple before macOS 10.13).")
    var legacyDealloc = false

    @Option(help: "The Swift compiler for Swift programs (default: KVO_SWIFTC, else swiftc on PATH).")
    var swiftc: String?

    @Option(parsing: .unconditional, help: "Stop a Swift program after this many seconds (default: none).")
    var timeout: Double?

    /// How a Swift program (SPEC §11.0) is compiled and run with these options.
    var swiftSettings: SwiftProgram.Settings {
        var settings = SwiftProgram.Settings()
        settings.swiftc = swiftc
        settings.format = format
        settings.maxDepth = maxDepth
        settings.quiet = quiet
        settings.legacyDealloc = legacyDealloc
        settings.timeout = timeout
        settings.explain = explain
        settings.keepGoing = keepGoing
        settings.color = !noColor && format == .text && Terminal.colorAllowed(descriptor: 1)
        settings.diagnosticColor = !noColor && format == .text && Terminal.colorAllowed(descriptor: 2)
        return settings
    }

    /// The flags the plainest command line (`kvo-run [run] FILE`) may take
    /// without the parser (`QuickStart`), each at most once, spelled as the
    /// parser spells the fields above (QuickStartTests runs both ways).
    static func plainFlag(_ name: String) -> WritableKeyPath<ScenarioOptions, Bool>? {
        switch name {
        case "--quiet": \.quiet
        case "--stats": \.stats
        case "--keep-going": \.keepGoing
        case "--no-color": \.noColor
        default: nil
        }
    }

    /// These options as the parser fills them when given only `flags` (of
    /// `plainFlag`): the defaults above, those flags on. Every field is set:
    /// a field the parser has not filled cannot be read.
    static func plain(_ flags: [WritableKeyPath<ScenarioOptions, Bool>]) -> ScenarioOptions {
        var options = ScenarioOptions()
        options.format = .text
        options.keepGoing = false
        options.noColor = false
        options.maxDepth = defaultMaxDepth
        options.maxSteps = nil
        options.quiet = false
        options.stats = false
        options.explain = false
        options.legacyDealloc = false
        options.swiftc = nil
        options.timeout = nil
        for flag in flags { options[keyPath: flag] = true }
        return options
    }

    public func validate() throws {
        try Self.validateLimits(maxDepth: maxDepth, maxSteps: maxSteps)
        if let timeout, !(timeout > 0) {
            throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)")
        }
    }

    /// `--max-depth` and `--max-steps`, as `run` and `test` both take them.
    static func validateLimits(maxDepth: Int, maxSteps: Int?) throws {
        guard maxDepth > 0 && maxDepth <= maxDepthCeiling else {
            throw ValidationError(
                "--max-depth must be a positive integer up to \(maxDepthCeiling), got \(maxDepth)")
        }
        if let maxSteps, maxSteps <= 0 {
            throw ValidationError("--max-steps must be a positive integer, got \(maxSteps)")
        }
    }

    var runOptions: RunOptions {
        var options = RunOptions()
        options.keepGoing = keepGoing
        options.maxDepth = maxDepth
        options.maxSteps = maxSteps ?? Int.max
        options.quiet = quiet
        options.explain = explain
        options.legacyDealloc = legacyDealloc
        return options
    }

    /// Standard output and standard error, rendering in the chosen format.
    func makeRenderer() -> EventRenderer {
        EventRenderer.standardStreams(format: format, noColor: noColor)
    }
}
