import KVOCore
import KVOHost
import KVOScript
/// Golden files: `X.kvo` (a scenario) or `X.swift` (a Swift program) beside
/// `X.out`, which holds everything it prints (stdout and stderr, in order) and
/// a last line `# exit status: N` when N ≠ 0. Used by `kvo-run test` and by
/// the test suite.
public enum Golden {
    /// The names a golden's source may end with. A `.kvo` that starts with
    /// `import Foundation` is a Swift program too (SPEC §11.0), as the Swift
    /// goldens were before `.swift` was taken; `.swift` keeps an editor's
    /// Swift highlighting.
    public static let sourceSuffixes = [".kvo", ".swift"]

    /// `X.out` for `X.kvo` or `X.swift`; `NAME.out` beside any other name.
    public static func expectedPath(for scenario: String) -> String {
        let suffix = sourceSuffixes.first { scenario.hasSuffix($0) } ?? ""
        return String(scenario.dropLast(suffix.count)) + ".out"
    }

    /// The goldens under `paths` (files or folders, searched recursively):
    /// every `X.kvo`, and every `X.swift` named directly or found beside its
    /// `X.out`. A folder of Swift also holds sources that are no goldens (a
    /// package's, a helper's), so there an `X.swift` without `X.out` is not
    /// one; named directly, it is, and a missing `X.out` says how to make it.
    public static func find(_ paths: [String]) -> Files.Found {
        Files.find(paths) { path, named in
            if path.hasSuffix(".kvo") { return true }
            return path.hasSuffix(".swift") && (named || Files.exists(expectedPath(for: path)))
        }
    }

    /// The goldens of `scenarios` that share their `X.out` with one before
    /// them (`X.kvo` and `X.swift` both), each with why it is not run: the
    /// two would record over each other's output.
    public static func sharingGoldens(_ scenarios: [String]) -> [(path: String, why: String)] {
        var owners: [String: String] = [:]
        var sharing: [(path: String, why: String)] = []
        for scenario in scenarios {
            let golden = expectedPath(for: scenario)
            if let owner = owners[golden] {
                sharing.append(
                    (
                        scenario,
                        "\(Files.baseName(owner)) and \(Files.baseName(scenario)) would share the golden "
                            + "\(Files.baseName(golden)); rename one of them"
                    ))
            } else {
                owners[golden] = scenario
            }
        }
        return sharing
    }

    /// What running a scenario for a golden test gave.
    public enum Rendering {
        /// Everything it printed, and `# exit status: N` when N is not 0.
        case output(String)
        /// It could not be read or its output was cut: never a golden.
        case failure(String)
    }

    /// Statements one golden scenario may execute: far more than any real
    /// scenario needs, few enough that a runaway loop fails in seconds.
    public static let maxStepsPerScenario = 50_000_000
    /// Seconds a Swift scenario may run in `test`.
    public static let swiftTimeout = 20.0

    /// Runs a scenario in-process and renders what it printed.
    public static func run(scenarioAt path: String) -> Rendering {
        render(scenarioAt: path, defaults: RunOptions()).rendering
    }

    /// A scenario's rendering, its exit status, and whether its directive
    /// says it records check errors on purpose. `defaults` are the `test`
    /// command's own run options; the scenario's `// kvo-run:` line adds to them.
    static func render(
        scenarioAt path: String, defaults: RunOptions
    ) -> (
        rendering: Rendering, status: Int32, expectErrors: Bool
    ) {
        let source: String
        do {
            // Regular files only: a FIFO named X.kvo would block the run.
            source = try Files.read(path, regularOnly: true)
        } catch {
            return (.failure("\(error)"), ExitStatus.failure, false)
        }
        var start = defaults
        // A scenario that loops forever must fail, not hang the test run;
        // `--max-steps` (of `test` or of the directive) sets the cap instead.
        if start.maxSteps == Int.max { start.maxSteps = maxStepsPerScenario }
        let directive = GoldenDirective.request(for: source, defaults: start)
        guard let request = directive.request else {
            return (.failure("\(path): \(directive.problem ?? "")"), ExitStatus.failure, false)
        }
        if SwiftProgram.isSwift(source, file: path) {
            // Compiled and run as a child; 20 s each, as SPEC §11.0 gives `test`.
            var (text, status) = SwiftProgram.runCaptured(
                source, path: path, timeout: swiftTimeout, options: request.options)
            if status != 0 { text += "# exit status: \(status)\n" }
            return (.output(text), status, request.expectErrors)
        }
        let writer = OutputWriter(capturing: ())
        let renderer = EventRenderer(format: .text, out: writer, err: writer)
        let session = Session.commandLine(options: request.options, output: renderer)
        let status = session.run(source, file: Files.baseName(path))
        var text = writer.capturedText
        if let failure = writer.failure {
            return (
                .failure("\(path): \(failure); make it print less (a loop that never ends?)"), status,
                request.expectErrors
            )
        }
        if status != 0 { text += "# exit status: \(status)\n" }
        return (.output(text), status, request.expectErrors)
    }

    /// The result of checking one scenario.
    public struct Outcome {
        public let scenario: String
        public let passed: Bool
        /// A unified diff, or why the golden file is missing.
        public let report: String
    }

    /// How `--update` treats a scenario with check errors (status 2).
    public enum ErrorRecording: Sendable {
        /// Only when its `// kvo-run: --expect-errors` line asks for it.
        case whenDirected
        /// Always (`kvo-run test --update-errors`).
        case always
    }

    /// Checks a scenario against its golden file, or with `update` rewrites
    /// the golden. A scenario that does not compile is not recorded unless
    /// its directive or `errors` says its golden holds the errors on purpose.
    public static func check(
        _ scenario: String, update: Bool, options: RunOptions = RunOptions(),
        errors: ErrorRecording = .whenDirected
    ) -> Outcome {
        let actual: String
        let rendered = render(scenarioAt: scenario, defaults: options)
        switch rendered.rendering {
        case .output(let text):
            if update && rendered.status == ExitStatus.scriptErrors && !rendered.expectErrors && errors != .always {
                return Outcome(
                    scenario: scenario, passed: false,
                    report: text
                        + "not recorded: \(Files.baseName(scenario)) has errors and does not run; fix them, "
                        + "or record the errors on purpose with '\(GoldenDirective.prefix) --expect-errors' "
                        + "as its first line or 'kvo-run test --update-errors \(scenario)'")
            }
            actual = text
        case .failure(let why):
            // Never replace a golden with an error: the scenario was not run.
            return Outcome(scenario: scenario, passed: false, report: why)
        }
        let goldenPath = expectedPath(for: scenario)
        if update {
            do {
                try Files.write(actual, to: goldenPath)
                return Outcome(scenario: scenario, passed: true, report: "")
            } catch {
                return Outcome(scenario: scenario, passed: false, report: "\(error)")
            }
        }
        let expected: String
        do {
            expected = try Files.read(goldenPath, limit: OutputWriter.defaultCaptureLimit + (1 << 10))
        } catch {
            let why = Files.exists(goldenPath) ? "\(error)" : "missing \(goldenPath)"
            return Outcome(
                scenario: scenario, passed: false, report: "\(why); create it with 'kvo-run test --update \(scenario)'")
        }
        // A golden saved with CRLF line endings (an editor, a checkout) still
        // matches; when it does not, the diff compares lines without the CRs,
        // so that it shows what differs rather than every line.
        let comparable = expected.replacingCRLF()
        if expected == actual || comparable == actual {
            return Outcome(scenario: scenario, passed: true, report: "")
        }
        let note =
            comparable.utf8.count != expected.utf8.count
            ? "(\(goldenPath) has CRLF line endings; compared without the CRs)\n" : ""
        return Outcome(
            scenario: scenario, passed: false,
            report: note
                + UnifiedDiff.render(
                    expected: comparable, actual: actual, expectedName: goldenPath, actualName: "actual output"))
    }
}

extension String {
    /// `\r\n` as `\n`.
    func replacingCRLF() -> String {
        guard utf8.contains(UInt8(ascii: "\r")) else { return self }
        return split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n")
    }
}
