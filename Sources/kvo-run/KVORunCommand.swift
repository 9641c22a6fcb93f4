import ArgumentParser
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run`: runs scenarios, checks them, runs golden tests, or opens the REPL.
@main
struct KVORunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kvo-run",
        abstract: "Run Key-Value Observing scenarios and print every notification exactly as Apple's KVO would.",
        discussion: """
            Examples:
              kvo-run scenarios/tour.kvo              run a scenario
              kvo-run --format json bank.kvo          JSON Lines events
              kvo-run - < bank.kvo                    read the scenario from standard input
              kvo-run                                 open the REPL (on a terminal)
              kvo-run check bank.kvo                  parse and check only
              kvo-run test scenarios/                 run golden tests
            """,
        version: "kvo-run 0.1.0",
        subcommands: [Run.self, Check.self, Test.self],
        defaultSubcommand: Run.self)
}

/// Options shared by the commands that run scenarios.
struct ScenarioOptions: ParsableArguments {
    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Flag(help: "After an uncaught exception or runtime error, report it and go on with the next top-level statement.")
    var keepGoing = false

    @Flag(help: "Never colour the output (also: NO_COLOR set in the environment).")
    var noColor = false

    @Option(help: "Deepest nesting of notifications and method calls.")
    var maxDepth = 1000

    @Option(help: "Most statements executed before the run stops (default: unlimited).")
    var maxSteps: Int?

    @Flag(help: "Count notifications instead of printing them (prints, exceptions and errors still appear).")
    var quiet = false

    @Flag(help: "End with one line on standard error: notifications, objects, statements, wall time.")
    var stats = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func validate() throws {
        guard maxDepth > 0 && maxDepth <= 100_000 else { throw ValidationError("--max-depth must be between 1 and 100000") }
        if let maxSteps, maxSteps <= 0 { throw ValidationError("--max-steps must be positive") }
    }

    var runOptions: RunOptions {
        var options = RunOptions()
        options.format = format == .json ? .json : .text
        options.keepGoing = keepGoing
        options.maxDepth = maxDepth
        options.maxSteps = maxSteps ?? Int.max
        options.quiet = quiet
        options.color = format == .text && !noColor && Terminal.colorAllowed(descriptor: 1)
        return options
    }
}

extension KVORunCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a scenario (the default command); with no file on a terminal, open the REPL.",
            discussion: """
                Examples:
                  kvo-run bank.kvo
                  kvo-run --quiet --stats big.kvo
                  kvo-run --keep-going --format json bank.kvo
                """)

        @Argument(help: "The scenario to run; '-' reads standard input. Omit it for the REPL.")
        var file: String?

        @OptionGroup var options: ScenarioOptions

        func run() throws {
            let options = self.options
            let file = self.file
            let status = LargeStack.run {
                Runner.run(file: file, options: options)
            }
            throw ExitCode(status)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse and check a scenario without running it.",
            discussion: "Example:\n  kvo-run check bank.kvo")

        @Argument(help: "The scenario to check; '-' reads standard input.")
        var file: String

        @OptionGroup var options: ScenarioOptions

        func run() throws {
            let file = self.file
            let options = self.options.runOptions
            let status = LargeStack.run { () -> Int32 in
                let read = Runner.readSource(file)
                guard let source = read.source else { return read.status }
                let session = Runner.makeSession(options)
                var status = session.check(source, file: file == "-" ? "<stdin>" : file)
                session.renderer.err.flush()
                if let failure = session.renderer.out.failure ?? session.renderer.err.failure {
                    Runner.stderr("kvo-run: \(failure)\n")
                    status = ExitStatus.outputFailed
                }
                return status
            }
            throw ExitCode(status)
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run golden tests: every X.kvo beside an X.out.",
            discussion: """
                Each X.kvo under the given paths (default: scenarios/) runs and all it prints is compared
                with X.out, whose last line is '# exit status: N' when N is not 0.
                Examples:
                  kvo-run test
                  kvo-run test scenarios/guide scenarios/tour.kvo
                  kvo-run test --update scenarios/objcio
                """)

        @Argument(help: "Scenario files or folders (default: scenarios/).")
        var paths: [String] = []

        @Flag(help: "Rewrite the .out files from the current output.")
        var update = false

        func run() throws {
            let paths = self.paths.isEmpty ? ["scenarios"] : self.paths
            let update = self.update
            let status = LargeStack.run { () -> Int32 in
                for path in paths where !Files.exists(path) {
                    // A dangling symlink is named here too: it cannot be read.
                    Runner.stderr("kvo-run: no such file or folder '\(path)'\n")
                    return ExitStatus.usage
                }
                let found = Files.find(paths, suffix: ".kvo")
                var passed = 0, failed = 0
                for (path, why) in found.rejected {
                    failed += 1
                    Runner.stdout("FAIL \(path)\ncannot read '\(path)': \(why)\n")
                }
                for scenario in found.files {
                    let outcome = Golden.check(scenario, update: update)
                    if outcome.passed {
                        passed += 1
                    } else {
                        failed += 1
                        Runner.stdout("FAIL \(scenario)\n\(outcome.report)\n")
                    }
                }
                Runner.stdout(update ? "\(passed) updated, \(failed) failed\n" : "\(passed) passed, \(failed) failed\n")
                if let failure = Runner.outputFailure {
                    Runner.stderr("kvo-run: \(failure)\n")
                    return ExitStatus.outputFailed
                }
                return failed == 0 ? 0 : 1
            }
            throw ExitCode(status)
        }
    }
}
