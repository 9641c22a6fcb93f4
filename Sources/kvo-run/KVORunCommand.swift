import ArgumentParser
import KVORun

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
        version: Version.full,
        subcommands: [RunCommand.self, CheckCommand.self, TestCommand.self],
        defaultSubcommand: RunCommand.self)
}
