import ArgumentParser
import KVOCore
import KVOScript

/// `kvo-run check FILE`: parses and checks only.
public struct CheckCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse and check a scenario without running it.",
        discussion: "Example:\n  kvo-run check bank.kvo")

    @Argument(help: "The scenario to check; '-' reads standard input.")
    var file: String

    @OptionGroup var options: ScenarioOptions

    public func run() throws {
        let file = self.file
        let options = self.options
        let status = LargeStack.run { () -> Int32 in
            let read = Runner.readSource(file)
            guard let source = read.source else { return read.status }
            let renderer = options.makeRenderer()
            let session = Session.commandLine(options: options.runOptions, output: renderer)
            var status = session.check(source, file: file == "-" ? "<stdin>" : file)
            renderer.flush()
            if let failure = renderer.out.failure ?? renderer.err.failure {
                Runner.stderr("kvo-run: \(failure)\n")
                status = ExitStatus.outputFailed
            }
            return status
        }
        throw ExitCode(status)
    }
}
