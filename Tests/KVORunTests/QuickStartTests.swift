import _KVOTestSupport
import KVORun
import Testing

/// The start-up path that skips the argument parser: it must take only the
/// plainest command lines, and those must behave as through the parser.
@Suite(.serialized) struct QuickStartTests {
    static let subcommands = ["run", "check", "test", "graph", "trace", "help"]

    /// Every option the parser has is a setting, and QuickStart's settings
    /// are the parser's when given only the same flags: a new option of
    /// ScenarioOptions must be added to ScenarioSettings (and its default
    /// kept the same) too.
    @Test func fillsEveryOptionAsTheParserWould() throws {
        let quick = try #require(QuickStart.parse(["bank.kvo"], subcommands: Self.subcommands)).settings
        let parsed = try ScenarioOptions.parse([])
        // The parser's fields are its property wrappers, `_format` for `format`.
        let optionNames = Mirror(reflecting: parsed).children.compactMap {
            $0.label.map { String($0.drop { $0 == "_" }) }
        }
        let settingNames = Mirror(reflecting: quick).children.compactMap(\.label)
        #expect(optionNames == settingNames)
        #expect(quick == parsed.settings)
        let flags = ["--quiet", "--stats", "--keep-going", "--no-color"]
        let quickFlagged = try #require(QuickStart.parse(["bank.kvo"] + flags, subcommands: Self.subcommands))
        #expect(quickFlagged.settings == (try ScenarioOptions.parse(flags)).settings)
        #expect(quickFlagged.settings != quick)
    }

    @Test func takesAFileWithTheSimpleFlags() throws {
        let plain = try #require(QuickStart.parse(["bank.kvo"], subcommands: Self.subcommands))
        #expect(plain.file == "bank.kvo")
        let flagged = try #require(
            QuickStart.parse(
                ["run", "--quiet", "bank.kvo", "--stats", "--keep-going", "--no-color"],
                subcommands: Self.subcommands))
        #expect(flagged.file == "bank.kvo")
    }

    @Test func leavesEverythingElseToTheParser() {
        let others: [[String]] = [
            [], ["-"], ["--quiet"], ["check", "bank.kvo"], ["test", "scenarios"], ["help"], ["run"],
            ["--format", "json", "bank.kvo"], ["--max-depth", "5", "bank.kvo"], ["--help"], ["--version"],
            ["bank.kvo", "other.kvo"], ["bank.kvo", "--quiet", "--quiet"], ["bank.kvo", "--"], ["-q", "bank.kvo"],
            ["run", "run"], [""], ["graph", "bank.kvo"], ["trace", "bank.kvo"],
        ]
        for arguments in others {
            #expect(QuickStart.parse(arguments[...], subcommands: Self.subcommands) == nil, "\(arguments)")
        }
    }

    /// Same output and status with and without the parser (`--max-depth
    /// 1000`, the default, sends the second run through it).
    @Test func runsAsTheParserDoes() throws {
        let folder = try Folder()
        try folder.write("s.kvo", observedScenario)
        // A runtime error, then a statement that only --keep-going reaches.
        try folder.write("bad.kvo", observedScenario + "acct.setValue(1, forKey: \"nope\")\nprint(\"after\")\n")
        for file in ["s.kvo", "bad.kvo"] {
            for flags in [[], ["--quiet"], ["--keep-going"], ["--quiet", "--keep-going", "--no-color"]] {
                let quick = try folder.run([file] + flags)
                let parsed = try folder.run([file, "--max-depth", "1000"] + flags)
                #expect(quick.status == parsed.status)
                #expect(quick.out == parsed.out)
                #expect(quick.err == parsed.err)
            }
        }
        let missing = try folder.run(["missing.kvo"])
        let missingParsed = try folder.run(["--max-depth", "1000", "missing.kvo"])
        #expect(missing.status == missingParsed.status && missing.err == missingParsed.err)
    }
}
