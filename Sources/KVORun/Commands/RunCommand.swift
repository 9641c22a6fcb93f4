import ArgumentParser
import KVOCore
import KVOHost
import KVOScript

/// `kvo-run [run] FILE`: runs a scenario; with no file on a terminal, the REPL.
public struct RunCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario (the default); with no file, on a terminal, the REPL.",
        discussion: """
            Examples:
              kvo-run bank.kvo
              kvo-run --quiet --stats big.kvo
              kvo-run --keep-going --format json bank.kvo
            """)

    @Argument(
        help: "The scenario to run; '-' reads standard input. Omit it for the REPL.",
        completion: .file(extensions: ["kvo", "swift"]))
    var file: String?

    /// The options of this, the default command, as its help lists them: the
    /// top-level help shows them too, since `kvo-run FILE` runs this command.
    public static var optionsHelp: String {
        let lines = helpMessage(columns: 76).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return "" }
        return (["OPTIONS (of the default command, run):"] + lines[(start + 1)...]).joined(separator: "\n")
    }

    /// The top-level help (`kvo-run --help`) with the default command's
    /// options in its OPTIONS section, after USAGE as in every other help:
    /// `kvo-run FILE` runs this command, so its options are the ones a
    /// newcomer needs. `message` is the top-level command's own help.
    public static func topLevelHelp(_ message: String) -> String {
        var runSection = optionsHelp.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("  -h, --help") }
        while runSection.last?.allSatisfy({ $0 == " " }) == true { runSection.removeLast() }
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard !runSection.isEmpty, let header = lines.firstIndex(of: "OPTIONS:") else { return message }
        lines.replaceSubrange(header...header, with: runSection)
        return lines.joined(separator: "\n")
    }

    @OptionGroup var options: ScenarioOptions

    public func run() throws {
        let options = self.options
        let file = self.file
        let status = LargeStack.run {
            Runner.run(file: file, settings: options.settings)
        }
        throw ExitCode(status)
    }
}
