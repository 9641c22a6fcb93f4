import ArgumentParser
import KVORun
#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run`: runs scenarios, checks them, runs golden tests, or opens the REPL.
@main
struct KVORunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kvo-run",
        abstract: "Run Key-Value Observing scenarios exactly as Apple's KVO would.",
        usage: """
            kvo-run [run] FILE.kvo [--format text|json] [--keep-going] [--quiet] [--stats] …
            kvo-run                           (the REPL, on a terminal)
            kvo-run check FILE.kvo …
            kvo-run test [PATH …] [--update] [--filter TEXT] [--junit FILE]
            """,
        discussion: """
            Examples:
              kvo-run scenarios/tour.kvo              run a scenario
              kvo-run --format json bank.kvo          JSON Lines events
              kvo-run - < bank.kvo                    read the scenario from standard input
              kvo-run                                 open the REPL (on a terminal)
              kvo-run check bank.kvo                  parse and check only
              kvo-run test scenarios/                 run golden tests
              kvo-run --generate-completion-script zsh   shell completion (bash, zsh, fish)
              ls /usr/local/share/kvo-run/examples    the examples make install puts there
            """,
        version: Version.full,
        subcommands: [RunCommand.self, CheckCommand.self, TestCommand.self, GraphCommand.self, TraceCommand.self],
        defaultSubcommand: RunCommand.self)

    /// Whatever ends the process, a write to standard output that failed
    /// fails it (`OutputCheck`).
    /// A completion script is the parser's, patched for the default
    /// subcommand (`CompletionScripts`); a mistyped subcommand and the
    /// plainest `kvo-run FILE` are handled before the parser (`EarlyExit`).
    static func main() {
        OutputCheck.installAtExit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let name = CompletionScripts.requestedShell(arguments), let shell = CompletionShell(rawValue: name) {
            print(CompletionScripts.patched(name, completionScript(for: shell)))
            Glibc.exit(0)
        }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        // The top-level help lists the default command's options after USAGE.
        if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            print(RunCommand.topLevelHelp(helpMessage()))
            Glibc.exit(0)
        }
        if let status = EarlyExit.status(arguments, subcommands: names) {
            Glibc.exit(status)
        }
        main(nil)
    }
}
