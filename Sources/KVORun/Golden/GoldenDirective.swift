import KVOScript

/// A golden scenario's first line may ask for run options:
/// `// kvo-run: --explain` runs it as `kvo-run --explain` would. Only the
/// options that change what a run prints or how far it may go are accepted;
/// any other word is an error, so a typo never silently runs the scenario
/// without it.
enum GoldenDirective {
    static let prefix = "// kvo-run:"

    /// The words a directive accepts, as its error lists them.
    static let accepted =
        "--explain, --keep-going, --legacy-dealloc, --max-steps N, --max-depth N, --expect-errors"

    /// What the first line asks for.
    struct Request {
        var options: RunOptions
        /// `--expect-errors`: the golden purposely records check errors
        /// (status 2), so `kvo-run test --update` writes it.
        var expectErrors = false
    }

    /// The options the first line of `source` asks for, on top of `defaults`
    /// (the `test` command's own options); nil and a reason when it names an
    /// option `kvo-run test` does not honour or a limit that is no positive
    /// number.
    static func request(
        for source: String, defaults: RunOptions = RunOptions()
    ) -> (
        request: Request?, problem: String?
    ) {
        var request = Request(options: defaults)
        // By scalars: with CRLF line endings "\r\n" is one Character, so a
        // Character search for "\n" ran on through the whole file.
        var firstLine = Substring(source.unicodeScalars.prefix { $0 != "\n" })
        if firstLine.unicodeScalars.last == "\r" { firstLine = Substring(firstLine.unicodeScalars.dropLast()) }
        guard firstLine.hasPrefix(prefix) else { return (request, nil) }
        var words = firstLine.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let word = words.popFirst() {
            // `--max-steps 100` and `--max-steps=100` both.
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0]
            switch name {
            case "--explain", "--keep-going", "--legacy-dealloc", "--expect-errors":
                if parts.count > 1 { return (nil, "line 1: '\(name)' takes no value") }
                switch name {
                case "--explain": request.options.explain = true
                case "--keep-going": request.options.keepGoing = true
                case "--legacy-dealloc": request.options.legacyDealloc = true
                default: request.expectErrors = true
                }
            case "--max-steps", "--max-depth":
                guard let text = parts.count > 1 ? parts[1] : words.popFirst() else {
                    return (nil, "line 1: '\(name)' needs a number, as in '\(name) 100'")
                }
                let limit = name == "--max-depth" ? ScenarioOptions.maxDepthCeiling : Int.max
                guard let value = Int(text), value > 0, value <= limit else {
                    let range = name == "--max-depth" ? " up to \(limit)" : ""
                    return (nil, "line 1: '\(name)' must be a positive integer\(range), got '\(text)'")
                }
                if name == "--max-steps" { request.options.maxSteps = value } else { request.options.maxDepth = value }
            default:
                return (nil, "line 1: '\(word)' is not an option '\(prefix)' accepts (\(accepted))")
            }
        }
        return (request, nil)
    }
}
