import ArgumentParser
import KVOCore
import KVOHost
import KVOScript

/// `kvo-run check FILE…`: parses and checks only.
public struct CheckCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse and check Swift programs and scenarios without running them.",
        discussion: """
            A Swift program (.swift, or a file that starts with 'import Foundation') is rewritten and \
            compiled by swiftc, not run; a scenario is parsed and checked.

            Examples:
              kvo-run check account.swift
              kvo-run check bank.kvo
              kvo-run check scenarios/*.kvo
            """)

    @Argument(
        help: "The Swift programs and scenarios to check; '-' reads standard input.",
        completion: .file(extensions: ["kvo", "swift"]))
    var files: [String]

    @Option(help: "Output format: text or json.")
    var format: OutputFormatKind = .text

    @Flag(help: "Never colour the output (also: NO_COLOR set in the environment).")
    var noColor = false

    public func validate() throws {
        if files.isEmpty { throw ValidationError("name a scenario to check, as in 'kvo-run check bank.kvo'") }
    }

    public func run() throws {
        let files = self.files
        let (format, noColor) = (self.format, self.noColor)
        let status = LargeStack.run { () -> Int32 in
            // The worst status of all: a usage error, then script errors.
            var worst = ExitStatus.success
            for file in files {
                var status: Int32
                let read = Runner.readSource(file, format: format)
                if let source = read.source, SwiftProgram.isSwift(source, file: file) {
                    // Compiled, not run (SPEC §11.0).
                    var settings = SwiftProgram.Settings()
                    settings.format = format
                    status = SwiftProgram.run(
                        source, display: file == "-" ? "<stdin>" : file, path: file == "-" ? nil : file,
                        settings: settings, compileOnly: true)
                } else if let source = read.source {
                    let renderer = EventRenderer.standardStreams(format: format, noColor: noColor)
                    let session = Session.commandLine(options: RunOptions(), output: renderer)
                    status = session.check(source, file: file == "-" ? "<stdin>" : file)
                    renderer.flush()
                    if let failure = renderer.out.failure ?? renderer.err.failure {
                        Runner.recordOutputFailure(failure)
                        Runner.reportOutputFailure()
                        status = ExitStatus.outputFailed
                    }
                } else {
                    status = read.status
                }
                if status == ExitStatus.usage || (worst != ExitStatus.usage && status > worst) { worst = status }
            }
            return worst
        }
        throw ExitCode(status)
    }
}
