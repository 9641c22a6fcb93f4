/// Start-up without the argument parser for the plainest command lines:
/// `kvo-run [run] FILE` with any of `--quiet`, `--stats`, `--keep-going`,
/// `--no-color`, each at most once. Building the parser's model of every
/// subcommand (and its check for a completion-script request) was two thirds
/// of the instructions of running a 10-line scenario. Anything else, help
/// and errors included, goes to the parser as before.
public enum QuickStart {
    /// The file and options of such a command line (without the program
    /// name), or nil when the parser must decide.
    public static func parse(
        _ arguments: ArraySlice<String>, subcommands: [String]
    )
        -> (file: String, options: ScenarioOptions)?
    {
        var rest = arguments
        if rest.first == "run" { rest = rest.dropFirst() }
        var file: String?
        var quiet = false, stats = false, keepGoing = false, noColor = false
        for argument in rest {
            switch argument {
            case "--quiet" where !quiet: quiet = true
            case "--stats" where !stats: stats = true
            case "--keep-going" where !keepGoing: keepGoing = true
            case "--no-color" where !noColor: noColor = true
            default:
                // One file, not an option, not standard input, and not a
                // subcommand's name (which the parser reads as the subcommand).
                guard file == nil, !argument.isEmpty, !argument.hasPrefix("-"),
                    !subcommands.contains(argument)
                else { return nil }
                file = argument
            }
        }
        guard let file else { return nil }
        // Every field is set: a field the parser has not filled cannot be read.
        var options = ScenarioOptions()
        options.format = .text
        options.keepGoing = keepGoing
        options.noColor = noColor
        options.maxDepth = ScenarioOptions.defaultMaxDepth
        options.maxSteps = nil
        options.quiet = quiet
        options.stats = stats
        options.explain = false
        options.legacyDealloc = false
        options.swiftc = nil
        options.timeout = nil
        return (file, options)
    }

    /// Runs such a command line and returns its exit status; nil when the
    /// parser must handle it.
    public static func run(_ arguments: ArraySlice<String>, subcommands: [String]) -> Int32? {
        guard let (file, options) = parse(arguments, subcommands: subcommands) else { return nil }
        return LargeStack.run { Runner.run(file: file, options: options) }
    }
}
