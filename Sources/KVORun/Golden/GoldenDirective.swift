import KVOScript

/// A golden scenario's first line may ask for run options:
/// `// kvo-run: --explain` runs it as `kvo-run --explain` would. Only the
/// options that change what a run prints are accepted; any other word is an
/// error, so a typo never silently runs the scenario without it.
enum GoldenDirective {
    static let prefix = "// kvo-run:"

    /// The options the first line of `source` asks for; nil and a reason when
    /// it names an option `kvo-run test` does not honour.
    static func options(for source: String) -> (options: RunOptions?, problem: String?) {
        var options = RunOptions()
        // By scalars: with CRLF line endings "\r\n" is one Character, so a
        // Character search for "\n" ran on through the whole file.
        var firstLine = Substring(source.unicodeScalars.prefix { $0 != "\n" })
        if firstLine.unicodeScalars.last == "\r" { firstLine = Substring(firstLine.unicodeScalars.dropLast()) }
        guard firstLine.hasPrefix(prefix) else { return (options, nil) }
        for word in firstLine.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            switch word {
            case "--explain": options.explain = true
            case "--keep-going": options.keepGoing = true
            default:
                return (nil, "line 1: '\(word)' is not an option '\(prefix)' accepts (--explain, --keep-going)")
            }
        }
        return (options, nil)
    }
}
