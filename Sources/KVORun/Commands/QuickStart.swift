import KVOHost
/// Start-up without the argument parser for the plainest command lines:
/// `kvo-run [run] FILE` with any of `ScenarioSettings.plainFlag`, each at
/// most once. Building the parser's model of every subcommand (and its check
/// for a completion-script request) is most of the instructions of running a
/// 10-line scenario (Benchmarks/README.md, "Measurement history"). Anything else, help and errors included, goes
/// to the parser as before. The flags and the defaults are ScenarioSettings'
/// (the values of ScenarioOptions): this file only recognises the shape of
/// the command line.
public enum QuickStart {
    /// The file and options of such a command line (without the program
    /// name), or nil when the parser must decide.
    public static func parse(
        _ arguments: ArraySlice<String>, subcommands: [String]
    )
        -> (file: String, settings: ScenarioSettings)?
    {
        var rest = arguments
        if rest.first == "run" { rest = rest.dropFirst() }
        var file: String?
        var settings = ScenarioSettings()
        for argument in rest {
            if let flag = ScenarioSettings.plainFlag(argument) {
                // A flag given twice is the parser's to refuse.
                guard settings.turnOn(flag) else { return nil }
                continue
            }
            // One file, not an option, not standard input, and not a
            // subcommand's name (which the parser reads as the subcommand).
            guard file == nil, !argument.isEmpty, !argument.hasPrefix("-"), !subcommands.contains(argument)
            else { return nil }
            file = argument
        }
        guard let file else { return nil }
        return (file, settings)
    }

    /// Runs such a command line and returns its exit status; nil when the
    /// parser must handle it.
    public static func run(_ arguments: ArraySlice<String>, subcommands: [String]) -> Int32? {
        guard let (file, settings) = parse(arguments, subcommands: subcommands) else { return nil }
        return LargeStack.run { Runner.run(file: file, settings: settings) }
    }
}
