#if canImport(Glibc)
import Glibc
#endif

/// What the command line decides before swift-argument-parser builds its
/// model: a mistyped subcommand (`kvo-run chek x.kvo`) gets a suggestion, and
/// the plainest `kvo-run [run] FILE` runs at once (`QuickStart`).
public enum EarlyExit {
    /// The exit status when the command was handled here, nil for the parser.
    public static func status(_ arguments: [String], subcommands: [String]) -> Int32? {
        if let message = CommandSuggestion.mistypedSubcommand(arguments, subcommands: subcommands) {
            Runner.stderr(message + "\n")
            return 64
        }
        return QuickStart.run(arguments[...], subcommands: subcommands)
    }
}
