import ArgumentParser
import KVOCore
import KVOScript

/// `kvo-run test PATHS`: the golden runner.
public struct TestCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "test",
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

    public func run() throws {
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
