import ArgumentParser
import KVOCore
import KVOScript

/// `kvo-run [run] FILE`: runs a scenario; with no file on a terminal, the REPL.
public struct RunCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
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

    public func run() throws {
        let options = self.options
        let file = self.file
        let status = LargeStack.run {
            Runner.run(file: file, options: options)
        }
        throw ExitCode(status)
    }
}
