import ArgumentParser
import KVOCore
import KVOHost
import KVOOutput
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run test PATHS`: the golden runner.
public struct TestCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run golden tests: every X.kvo or X.swift beside an X.out.",
        discussion: """
            Each X.kvo and X.swift under the given paths (default: scenarios/) runs and all it prints \
            is compared with X.out, whose last line is '# exit status: N' when N is not 0. A scenario may execute \
            at most \(Golden.maxStepsPerScenario) statements, so that one that never ends fails. \
            A scenario's first line may ask for run options: '// kvo-run: --explain --max-steps 100' \
            (\(GoldenDirective.accepted)). \
            A scenario that does not compile is not recorded by --update unless it says \
            '// kvo-run: --expect-errors' or --update-errors is given. In a folder, an X.swift counts \
            only beside its X.out (a folder of Swift holds other sources); name a new one to record it.

            Examples:
              kvo-run test
              kvo-run test scenarios/guide scenarios/tour.kvo
              kvo-run test --filter dependent
              kvo-run test --update scenarios/objcio
              kvo-run test --junit report.xml
            """)

    @Argument(
        help: "Scenario or Swift files, or folders (default: scenarios/).",
        completion: .file(extensions: ["kvo", "swift"]))
    var paths: [String] = []

    @Flag(help: "Rewrite the .out files from the current output.")
    var update = false

    @Flag(help: "Like --update, and also record scenarios whose golden shows check errors.")
    var updateErrors = false

    // .unconditional, as in ScenarioOptions: '--max-steps -1' is told what is
    // wrong with -1.
    @Option(
        parsing: .unconditional,
        help: "Most statements each scenario may execute (default: \(Golden.maxStepsPerScenario)).")
    var maxSteps: Int?

    @Option(parsing: .unconditional, help: "Deepest nesting of notifications and method calls.")
    var maxDepth = KVORuntime.defaultMaxDepth

    @Flag(help: "Releasing an observed object raises NSInternalInconsistencyException (Apple before macOS 10.13).")
    var legacyDealloc = false

    @Option(help: ArgumentHelp("Run only the scenarios whose path contains this text.", valueName: "text"))
    var filter: String?

    @Option(
        help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"),
        completion: .file(extensions: ["xml"]))
    var junit: String?

    @Flag(help: "Never colour the diffs (also: NO_COLOR set in the environment).")
    var noColor = false

    public func validate() throws {
        try ScenarioOptions.validateLimits(maxDepth: maxDepth, maxSteps: maxSteps)
    }

    /// The run options every scenario starts from; its directive adds to them.
    var runOptions: RunOptions {
        var options = RunOptions()
        options.maxDepth = maxDepth
        options.maxSteps = maxSteps ?? Int.max
        options.legacyDealloc = legacyDealloc
        return options
    }

    public func run() throws {
        let paths = self.paths.isEmpty ? ["scenarios"] : self.paths.map(Files.commandLinePath)
        let (update, filter, junit) = (self.update || updateErrors, self.filter, self.junit)
        let (options, errors) = (runOptions, updateErrors ? Golden.ErrorRecording.always : .whenDirected)
        let color = !noColor && Terminal.colorAllowed(descriptor: 1)
        let status = LargeStack.run { () -> Int32 in
            for path in paths where !Files.exists(path) {
                // A dangling symlink is named here too: it cannot be read.
                Runner.stderr("kvo-run: no such file or folder '\(Self.visible(path))'\n")
                return ExitStatus.usage
            }
            let found = Golden.find(paths)
            var scenarios = found.files.filter { filter.map($0.contains) ?? true }
            let rejected = found.rejected.filter { filter.map($0.0.contains) ?? true }
            let sharing = Golden.sharingGoldens(scenarios)
            scenarios.removeAll { scenario in sharing.contains { $0.path == scenario } }
            if scenarios.isEmpty && rejected.isEmpty {
                let which = filter.map { " matching '\($0)'" } ?? ""
                Runner.stderr(
                    "kvo-run: no scenarios (X.kvo files, or X.swift files beside an X.out)\(Self.visible(which)) under "
                        + "\(Self.visible(paths.joined(separator: ", "))); "
                        + "name a folder or file that holds some\n")
                return ExitStatus.failure
            }
            var report = JUnitReport()
            var passed = 0, failed = 0
            for (path, why) in rejected {
                failed += 1
                Runner.stdout("FAIL \(Self.visible(path))\ncannot read '\(Self.visible(path))': \(why)\n")
                report.add(path, seconds: 0, failure: "cannot read '\(path)': \(why)")
            }
            for (path, why) in sharing {
                failed += 1
                Runner.stdout("FAIL \(Self.visible(path))\n\(Self.visible(why))\n")
                report.add(path, seconds: 0, failure: why)
            }
            for scenario in scenarios {
                let start = Clock.now()
                let outcome = Golden.check(scenario, update: update, options: options, errors: errors)
                let seconds = Clock.now() - start
                if outcome.passed {
                    passed += 1
                    report.add(scenario, seconds: seconds, failure: nil)
                } else {
                    failed += 1
                    let shown = Self.visible(outcome.report)
                    Runner.stdout("FAIL \(Self.visible(scenario))\n\(color ? Self.painted(shown) : shown)\n")
                    report.add(scenario, seconds: seconds, failure: outcome.report)
                }
            }
            Runner.stdout(update ? "\(passed) updated, \(failed) failed\n" : "\(passed) passed, \(failed) failed\n")
            if let junit {
                do {
                    try Files.write(report.xml, to: junit)
                } catch {
                    Runner.stderr("kvo-run: \(error)\n")
                    return ExitStatus.failure
                }
            }
            if Runner.outputFailure != nil {
                Runner.reportOutputFailure()
                return ExitStatus.outputFailed
            }
            return failed == 0 ? 0 : 1
        }
        throw ExitCode(status)
    }

    /// What goes to the terminal: file names and reports with control and
    /// bidi characters escaped (`\u{1B}`), line breaks kept, and the bytes of
    /// a name that are not UTF-8 as `\x{FF}` (`Files.shown`). A file named
    /// with an ESC could otherwise drive the terminal.
    static func visible(_ text: String) -> String {
        ControlCharacters.escaping(Files.shown(text), keepingNewlines: true)
    }

    /// A unified diff with removed lines red and added lines green.
    static func painted(_ diff: String) -> String {
        diff.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("---") || line.hasPrefix("+++") { return Paint.bold(line, if: true) }
            if line.hasPrefix("-") { return Paint.red(line, if: true) }
            if line.hasPrefix("+") { return Paint.green(line, if: true) }
            if line.hasPrefix("@@") { return Paint.cyan(line, if: true) }
            return String(line)
        }.joined(separator: "\n")
    }
}
