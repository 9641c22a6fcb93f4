import ArgumentParser
import KVOCore
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
    var maxDepth = KVORuntime.defaultMaxDepth
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

    @Option(
        parsing: .unconditional, help: "Stop the scenario or Swift program after this many seconds (default: none).")
    var timeout: Double?

    public func validate() throws {
        try Self.validateLimits(maxDepth: maxDepth, maxSteps: maxSteps)
        if let timeout, !(timeout > 0) {
            throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)")
        }
    }

    /// `--max-depth` and `--max-steps`, as `run` and `test` both take them.
    public static func validateLimits(maxDepth: Int, maxSteps: Int?) throws {
        guard maxDepth > 0 && maxDepth <= maxDepthCeiling else {
            throw ValidationError(
                "--max-depth must be a positive integer up to \(maxDepthCeiling), got \(maxDepth)")
        }
        if let maxSteps, maxSteps <= 0 {
            throw ValidationError("--max-steps must be a positive integer, got \(maxSteps)")
        }
    }

    /// The values the parser filled, for running.
    public var settings: ScenarioSettings {
        ScenarioSettings(
            format: format, keepGoing: keepGoing, noColor: noColor, maxDepth: maxDepth, maxSteps: maxSteps,
            quiet: quiet, stats: stats, explain: explain, legacyDealloc: legacyDealloc, swiftc: swiftc,
            timeout: timeout)
    }
}
