import ArgumentParser
import KVORun
import KVOServe
#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run`: runs scenarios, checks them, runs golden tests, or opens the REPL.
@main
struct KVORunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kvo-run",
        abstract: "Run Swift programs and scenarios with Key-Value Observing exactly as Apple's KVO would.",
        usage: """
            kvo-run [run] FILE.swift|FILE.kvo [--format text|json] [--explain] …
            kvo-run                           (the REPL, on a terminal)
            kvo-run check FILE …
            kvo-run test [PATH …] [--update] [--filter TEXT] [--junit FILE]
            kvo-run graph FILE [--at LINE] [-o OUT.svg]
            kvo-run trace FILE [-o OUT.svg]
            kvo-run cache [list|clean]
            kvo-run serve [--port N] [--host ADDR] [--allow-swift]
            """,
        discussion: """
            A .swift file, or one whose first statement is 'import Foundation', is a Swift program: \
            kvo-run compiles it with your toolchain's swiftc against its own KVO runtime and runs it \
            (the first one builds the runtime, once per toolchain: one to two minutes). Any other file \
            is a scenario, interpreted at once.

            Examples:
              kvo-run account.swift                   compile and run a Swift program
              kvo-run bank.kvo                        run a scenario
              kvo-run --explain account.swift         also say why, step by step
              kvo-run --format json bank.kvo          JSON Lines events
              kvo-run - < bank.kvo                    read the file from standard input
              kvo-run                                 open the REPL (on a terminal)
              kvo-run check account.swift             check only
              kvo-run test tests/                     golden tests: X.swift or X.kvo, X.out
              kvo-run serve                           the playground in a browser: http://127.0.0.1:8080/
              kvo-run --generate-completion-script zsh   shell completion (bash, zsh, fish)
              ls /usr/local/share/kvo-run/examples    the examples make install puts there
            """,
        version: Version.full,
        subcommands: [
            RunCommand.self, CheckCommand.self, TestCommand.self, GraphCommand.self, TraceCommand.self,
            CacheCommand.self, ServeCommand.self,
        ],
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
