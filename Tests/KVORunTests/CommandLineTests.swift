import _KVOTestSupport
import Foundation
@testable import KVORun
import Testing

/// The command line as a newcomer meets it: help, mistakes, several files,
/// counts, the golden runner's options, and how files are read.
@Suite(.serialized) struct CommandLineTests {
    // MARK: Help

    @Test func timeoutStopsARunawayScenarioAtItsStatement() throws {
        let folder = try Folder()
        try folder.write(
            "loop.kvo", "var i = 0\nprint(\"started\")\nwhile true { i = i + 1 }\nprint(\"not reached\")\n")
        let start = Date()
        let result = try folder.run(["--timeout", "0.5", "loop.kvo"])
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(result.status == 1, "\(result)")
        #expect(result.out == "started\n", "\(result)")
        #expect(
            result.err.hasPrefix(
                "loop.kvo:3:1: error: the scenario ran longer than 0.5 s and was stopped (--timeout); does a loop never end?\n"
            ), "\(result)")
        // Standard input too; a scenario that ends in time is not touched.
        let piped = try folder.run(["--timeout", "0.5", "-"], stdin: .pipe("var i = 0\nwhile true { i = i + 1 }\n"))
        #expect(piped.status == 1 && piped.err.hasPrefix("<stdin>:2:1: error: the scenario ran longer"), "\(piped)")
        let quick = try folder.run(["--timeout", "5", "-"], stdin: .pipe("print(1)\n"))
        #expect(quick.status == 0 && quick.out == "1\n" && quick.err.isEmpty, "\(quick)")
    }

    @Test func topLevelHelpShowsTheDefaultCommandsOptions() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        for option in ["--format", "--quiet", "--stats", "--keep-going", "--max-depth", "--max-steps"] {
            #expect(help.out.contains(option), "\(option) missing from:\n\(help.out)")
        }
        #expect(help.out.contains("kvo-run [run] FILE.swift|FILE.kvo"))
        #expect(help.out.contains("check"))
        // Issue 42 item 8: where `make install` puts the examples.
        #expect(help.out.contains("/usr/local/share/kvo-run/examples"), "\(help.out)")
    }

    /// Issue 29: the top-level help listed the run options before USAGE.
    @Test func topLevelHelpListsUsageThenOptions() throws {
        for spelling in [["--help"], ["-h"], ["help"]] {
            let help = try CLI.run(spelling)
            #expect(help.status == 0)
            let lines = help.out.split(separator: "\n").map(String.init)
            let usage = lines.firstIndex { $0.hasPrefix("USAGE:") }
            let options = lines.firstIndex { $0.hasPrefix("OPTIONS") }
            let subcommands = lines.firstIndex { $0.hasPrefix("SUBCOMMANDS:") }
            guard let usage, let options, let subcommands else {
                Issue.record("sections missing from \(spelling):\n\(help.out)")
                continue
            }
            #expect(usage < options && options < subcommands, "\(help.out)")
            #expect(lines.filter { $0.hasPrefix("OPTIONS") }.count == 1, "one OPTIONS section: \(help.out)")
            let section = lines[options..<subcommands].joined(separator: "\n")
            for option in ["--format", "--max-depth", "--legacy-dealloc", "--version", "-h, --help"] {
                #expect(section.contains(option), "\(option) missing from OPTIONS:\n\(section)")
            }
        }
    }

    /// Issue 29: hand-wrapped discussions came out ragged (the parser wraps
    /// again), with no blank line before the examples, and `-o <o>`.
    @Test func pictureAndTestHelpIsWrappedOnceWithNamedPlaceholders() throws {
        let placeholders = [
            "graph": ["--at <line>", "-o <file>"], "trace": ["-o <file>"],
            "test": ["--filter <text>", "--junit <file>"],
        ]
        for (command, names) in placeholders {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            for name in names { #expect(help.out.contains(name), "\(name) in:\n\(help.out)") }
            #expect(!help.out.contains("<o>") && !help.out.contains("<at>"), "\(help.out)")
            let paragraphs = help.out.components(separatedBy: "\nUSAGE:")[0]
            #expect(paragraphs.contains("\n\nExample"), "a blank line before the examples:\n\(help.out)")
            // Within a paragraph, every line but the last is filled.
            let lines = paragraphs.components(separatedBy: "\nExample")[0].split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated()
            where !line.isEmpty && index + 1 < lines.count && !lines[index + 1].isEmpty {
                #expect(line.count >= 60, "a ragged line in '\(command) --help': '\(line)'\n\(help.out)")
            }
        }
    }

    /// Issue 29: `trace` wrote SVG, and `graph` DOT, into a terminal; there
    /// they draw into a temporary file and say where.
    @Test func picturesAskedForAtATerminalGoToATemporaryFile() throws {
        let folder = try Folder()
        let scenario = try folder.write(
            "bank.kvo",
            "class Account { var balance: Double = 0 }\nlet acct = Account()\n"
                + "acct.addObserver(acct, forKeyPath: \"balance\")\nacct.balance = 1\n")
        for (command, suffixes) in [("graph", [".graph.svg", ".graph.dot"]), ("trace", [".trace.svg"])] {
            let terminal = try Terminal(arguments: [command, scenario], environment: [:])
            #expect(terminal.wait() == 0, "\(terminal.transcript)")
            let said = terminal.transcript
            #expect(said.hasPrefix("the \(command) is in /"), "\(said)")
            #expect(!said.contains("<svg") && !said.contains("digraph"), "\(said)")
            let path = said.dropFirst("the \(command) is in ".count).components(separatedBy: " (").first ?? ""
            #expect(suffixes.contains { path.hasSuffix("/bank" + $0) }, "\(path)")
            let picture = try String(contentsOfFile: path, encoding: .utf8)
            #expect(picture.contains("balance"), "\(picture.prefix(500))")
        }
        // Piped, the picture is the output, as before.
        let piped = try folder.run(["graph", "bank.kvo"])
        #expect(piped.out.hasPrefix("digraph"), "\(piped)")
    }

    @Test func checkHelpListsOnlyWhatApplies() throws {
        let help = try CLI.run(["check", "--help"])
        #expect(help.out.contains("--format"))
        for option in ["--keep-going", "--max-steps", "--max-depth", "--quiet", "--stats"] {
            #expect(!help.out.contains(option), "\(option) does not apply to check:\n\(help.out)")
        }
    }

    @Test func aMistypedSubcommandSuggestsTheRightOne() throws {
        let result = try CLI.run(["chek", "x.kvo"])
        #expect(result.status == 64)
        #expect(result.err == "kvo-run: unknown command 'chek'; did you mean 'kvo-run check x.kvo'?\n")
        let test = try CLI.run(["tset"])
        #expect(test.err.contains("did you mean 'kvo-run test'?"))
    }

    @Test func aFileNamedLikeACommandIsStillAFile() throws {
        let folder = try Folder()
        try folder.write("chek", "print(1)\n")
        let result = try folder.run(["chek"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1\n")
    }

    @Test func completionScriptsCompleteKVOFiles() throws {
        let zsh = try CLI.run(["--generate-completion-script", "zsh"])
        #expect(zsh.out.contains("*.kvo"))
        #expect(zsh.out.contains("*.swift"))
        let fish = try CLI.run(["--generate-completion-script", "fish"])
        #expect(fish.status == 0)
        #expect(fish.out.contains("kvo"))
    }

    /// The scripts are the parser's with kvo-run's fixes for the default
    /// subcommand (`CompletionScripts`), in every spelling of the request.
    @Test func completionScriptsArePatchedForTheDefaultSubcommand() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.run(["--generate-completion-script", shell])
            #expect(script.status == 0, "\(script)")
            let patched = script.out.contains(CompletionScripts.marker)
            #expect(
                patched,
                """
                The \(shell) script is not patched: a snippet CompletionScripts replaces is no longer in \
                swift-argument-parser's script (did the parser change?), so kvo-run ok<TAB> completes nothing. \
                Update the snippets in Sources/KVORun/Commands/CompletionScripts.swift.
                """)
            let equals = try CLI.run(["--generate-completion-script=\(shell)"])
            #expect(equals.status == 0 && equals.out == script.out)
        }
        let unknown = try CLI.run(["--generate-completion-script", "tcsh"])
        #expect(unknown.status == 64)
        #expect(unknown.err.hasPrefix("Error: Can't generate completion scripts for 'tcsh'."), "\(unknown)")
        #expect(CompletionScripts.requestedShell(["--generate-completion-script", "zsh"]) == "zsh")
        #expect(CompletionScripts.requestedShell(["--generate-completion-script=fish"]) == "fish")
        #expect(CompletionScripts.requestedShell(["--format", "json"]) == nil)
        #expect(CompletionScripts.requestedShell(["run", "--generate-completion-script", "zsh"]) == nil)
        // Another parser's script comes back unchanged,
        #expect(CompletionScripts.patched("zsh", "#compdef kvo-run\n") == "#compdef kvo-run\n")
        #expect(CompletionScripts.patched("tcsh", "complete kvo-run\n") == "complete kvo-run\n")
        // never half patched: the second fish snippet is here, the first is not.
        let halfFish = #"""
                    case 'run'
            complete -c 'kvo-run' -n '__kvo-run_should_offer_completions_for_positional "kvo-run" -eq 1' -fa 'run'

            """#
        #expect(CompletionScripts.patched("fish", halfFish) == halfFish)
    }

    /// Each command line (the last word is the one completed) and what every
    /// shell offers for it in a folder holding ok.kvo, ok.swift, other.txt and okdir/.
    /// Without a subcommand the words are run's, the first word may also be a
    /// subcommand's name; after a subcommand, completion is the parser's.
    /// Issue 42: `.swift` files complete wherever `.kvo` files do.
    static let completionCases: [(line: String, completions: Set<String>)] = [
        ("kvo-run ok", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run --format j", ["json"]),
        ("kvo-run --format json o", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run ru", ["run"]),
        ("kvo-run ", ["ok.kvo", "ok.swift", "okdir", "run", "check", "test", "graph", "trace", "cache", "serve", "help"]),
        ("kvo-run --ke", ["--keep-going"]),
        ("kvo-run ok.kvo --format t", ["text"]),
        ("kvo-run run ok", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run run --format j", ["json"]),
        ("kvo-run check o", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run test o", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run graph o", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run trace o", ["ok.kvo", "ok.swift", "okdir"]),
        ("kvo-run test --u", ["--update", "--update-errors"]),
        ("kvo-run cache c", ["clean"]),
    ]

    /// Each shell runs kvo-run's script for every case, in one process that
    /// prints `=== LINE` and then one completion a line.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCompleteWithoutASubcommand(shell: String) throws {
        guard let program = ExternalTool.find(shell) else {
            Issue.record("\(shell) is not installed: `make setup` installs it (this test runs its completion script)")
            return
        }
        let tools = try Folder()
        let script = try CLI.run(["--generate-completion-script", shell])
        let scriptPath = try tools.write("script.\(shell)", script.out)
        let driver = try tools.write("driver.\(shell)", Self.completionDrivers[shell] ?? "")
        let arguments: [String]
        switch shell {
        case "zsh": arguments = ["-f", driver, scriptPath, try tools.write("setup.zsh", Self.zshCompletionSetup)]
        case "fish": arguments = ["--no-config", driver, scriptPath]
        default: arguments = [driver, scriptPath]
        }
        let work = try Folder()
        try work.write("ok.kvo", "print(1)\n")
        try work.write("ok.swift", "import Foundation\n")
        try work.write("other.txt", "")
        try FileManager.default.createDirectory(
            at: work.url.appendingPathComponent("okdir"), withIntermediateDirectories: false)
        let lines = Self.completionCases.map(\.line)
        let result = try CLI.run(arguments + lines, in: work.url, timeout: 120, executable: program)
        #expect(result.status == 0, "\(result)")
        var offered: [String: Set<String>] = [:]
        var current: String?
        for line in result.outLines {
            if line.hasPrefix("=== ") {
                let name = String(line.dropFirst(4))
                current = name
                offered[name] = []
            } else if let current, !line.isEmpty {
                // fish: "WORD<tab>DESCRIPTION", directories with a slash.
                var word = String(line.prefix { $0 != "\t" })
                if word.hasSuffix("/") { word.removeLast() }
                offered[current, default: []].insert(word)
            }
        }
        for (line, completions) in Self.completionCases {
            #expect(offered[line] == completions, "\(shell): \(line)<TAB>\n\(result)")
        }
    }

    /// bash: source the script, set what bash sets for a completion, call
    /// the function, print COMPREPLY.
    /// fish: `complete -C LINE` prints what fish would offer.
    /// zsh: completion needs the line editor, so each line is typed into an
    /// interactive `zsh -f -i` on a pseudo-terminal (zpty) followed by a Tab;
    /// the setup wraps `compadd` to print each match it adds.
    static let completionDrivers: [String: String] = [
        "bash": #"""
        source "$1"
        shift
        for line in "$@"; do
            echo "=== $line"
            read -ra COMP_WORDS <<< "$line"
            [[ "$line" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="$line"
            COMP_POINT=${#line}
            COMPREPLY=()
            _kvo-run kvo-run "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\n' "${COMPREPLY[@]}"
        done
        """#,
        "fish": #"""
        source $argv[1]
        for line in $argv[2..]
            echo "=== $line"
            complete -C "$line"
        end
        """#,
        "zsh": #"""
        zmodload zsh/zpty || exit 3
        script=$1 setup=$2
        shift 2
        for line in "$@"; do
            print -r -- "=== $line"
            zpty completion TERM=xterm zsh -f -i
            zpty -w completion "KVO_SCRIPT=${(q)script} source ${(q)setup}"
            zpty -r completion output '*READY*' || exit 4
            zpty -w -n completion "$line"$'\t'
            zpty -r completion output '*END-OF-COMPLETION*' || exit 5
            zpty -d completion
            for output_line in "${(@f)output//$'\r'/}"; do
                [[ "$output_line" == MATCH:* ]] && print -r -- "${output_line#MATCH:}"
            done
        done
        exit 0
        """#,
    ]

    /// Sourced by the interactive zsh: the completion system, kvo-run's
    /// script, and a `compadd` that also prints the matches it adds (each on
    /// a line of its own), then a line once completion is over.
    static let zshCompletionSetup = #"""
        PROMPT='' RPROMPT=''
        autoload -Uz compinit && compinit -u -D
        bindkey '^I' complete-word
        zstyle ':completion:*' insert-tab false
        compadd() {
            # Calls that only compute matches (-O, -A, -D) add nothing.
            if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
                builtin compadd "$@"
                return
            fi
            local -a kvo_matches
            builtin compadd -O kvo_matches "$@"
            (( ${#kvo_matches} )) && print -rl -- '' "MATCH:"${^kvo_matches}
            builtin compadd "$@"
        }
        kvo_completion_done() { print -rl -- '' 'END-OF-COMPLETION' }
        comppostfuncs=(kvo_completion_done)
        source "$KVO_SCRIPT"
        print -r -- READY
        """#

    // MARK: check

    @Test func checkTakesSeveralFiles() throws {
        let folder = try Folder()
        try folder.write("good.kvo", "print(1)\n")
        try folder.write("bad.kvo", "print(nope)\n")
        let both = try folder.run(["check", "good.kvo", "bad.kvo"])
        #expect(both.status == 2)
        #expect(both.err.hasPrefix("bad.kvo:1:7: error: cannot find 'nope' in scope"))
        let good = try folder.run(["check", "good.kvo", "good.kvo"])
        #expect(good.status == 0)
        let missing = try folder.run(["check", "bad.kvo", "missing.kvo"])
        #expect(missing.status == 64)
    }

    // MARK: Counts

    @Test func quietReportsTheCountOfNotifications() throws {
        let folder = try Folder()
        try folder.write("q.kvo", observedScenario)
        let result = try folder.run(["--quiet", "q.kvo"])
        #expect(result.out == "done\n")
        #expect(result.err == "kvo-run: 2 notifications (not shown: --quiet)\n")
    }

    @Test func countsPluralise() throws {
        let folder = try Folder()
        try folder.write(
            "one.kvo",
            """
            class A { var n: Int = 0 }
            let a = A()
            a.addObserver(a, forKeyPath: "n")
            """ + "\n")
        try folder.write(
            "one-notification.kvo",
            """
            class A { var n: Int = 0 }
            let a = A()
            a.addObserver(a, forKeyPath: "n")
            a.n = 1
            """ + "\n")
        let quiet = try folder.run(["--quiet", "one-notification.kvo"])
        #expect(quiet.err == "kvo-run: 1 notification (not shown: --quiet)\n")
        let stats = try folder.run(["--stats", "one.kvo"])
        #expect(stats.err.hasPrefix("kvo-run: 0 notifications, 1 object, 2 statements, "), "\(stats)")
    }

    // MARK: The golden runner

    @Test func testFindingNothingIsAFailure() throws {
        let folder = try Folder()
        try folder.write("notes.txt", "nothing here\n")
        let result = try folder.run(["test", "."])
        #expect(result.status == 1)
        #expect(result.err.contains("no scenarios"))
    }

    @Test func testFilterRunsTheMatchingScenarios() throws {
        let folder = try Folder()
        try folder.write("s/alpha.kvo", "print(1)\n")
        try folder.write("s/alpha.out", "1\n")
        try folder.write("s/beta.kvo", "print(2)\n")
        try folder.write("s/beta.out", "wrong\n")
        let alpha = try folder.run(["test", "s", "--filter", "alp"])
        #expect(alpha.status == 0, "\(alpha)")
        #expect(alpha.out == "1 passed, 0 failed\n")
        let none = try folder.run(["test", "s", "--filter", "gamma"])
        #expect(none.status == 1)
        #expect(none.err.contains("matching 'gamma'"))
    }

    @Test func testWritesAJUnitReport() throws {
        let folder = try Folder()
        try folder.write("s/alpha.kvo", "print(1)\n")
        try folder.write("s/alpha.out", "1\n")
        try folder.write("s/beta.kvo", "print(\"<2>\")\n")
        try folder.write("s/beta.out", "wrong\n")
        let result = try folder.run(["test", "s", "--junit", "report.xml"])
        #expect(result.status == 1)
        let xml = try String(contentsOf: folder.url.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"2\" failures=\"1\""))
        #expect(xml.contains("name=\"s/alpha.kvo\""))
        #expect(xml.contains("<failure message=\"output differs from the .out file\">"))
        #expect(xml.contains("+&lt;2&gt;"))
    }

    @Test func aGoldenThatNeverEndsFailsInsteadOfHanging() throws {
        let folder = try Folder()
        try folder.write("s/loop.kvo", "var i = 0\nwhile true { i += 1 }\n")
        try folder.write("s/loop.out", "\n")
        let result = try CLI.run(["test", "s"], in: folder.url, timeout: 120)
        #expect(result.status == 1)
        #expect(result.out.contains("more than \(Golden.maxStepsPerScenario) statements executed"))
    }

    /// Issue 29 item 6: `test --update` recorded a scenario that does not
    /// compile ("1 updated, 0 failed", the golden holding the error).
    @Test func updateDoesNotRecordAScenarioWithCheckErrors() throws {
        let folder = try Folder()
        try folder.write("s/typo.kvo", "let a = Acount()\n")
        let update = try folder.run(["test", "--update", "s"])
        #expect(update.status == 1, "\(update)")
        #expect(update.out.contains("FAIL s/typo.kvo"), "\(update)")
        #expect(update.out.contains("typo.kvo:1:9: error: cannot find 'Acount' in scope"), "\(update)")
        #expect(update.out.contains("not recorded: typo.kvo has errors"), "\(update)")
        #expect(update.out.hasSuffix("0 updated, 1 failed\n"), "\(update)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("s/typo.out").path))
        // Asked for explicitly, on the command line or by the scenario itself.
        let forced = try folder.run(["test", "--update-errors", "s"])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.out == "1 updated, 0 failed\n")
        let golden = try String(contentsOf: folder.url.appendingPathComponent("s/typo.out"), encoding: .utf8)
        #expect(golden.hasSuffix("# exit status: 2\n"), "\(golden)")
        try folder.write("s/meant.kvo", "// kvo-run: --expect-errors\nlet a = Acount()\n")
        let directed = try folder.run(["test", "--update", "s", "--filter", "meant"])
        #expect(directed.status == 0, "\(directed)")
        #expect(try folder.run(["test", "s"]).out == "2 passed, 0 failed\n")
    }

    /// Issue 29 item 8: the runaway error says "raise the limit with
    /// --max-steps", which neither `test` nor a directive accepted.
    @Test func aGoldenCanSetItsLimitsOnTheCommandLineAndInItsDirective() throws {
        let folder = try Folder()
        let loop = "var i = 0\nwhile i < 100 { i += 1 }\nprint(i)\n"
        try folder.write("s/loop.kvo", loop)
        try folder.write("s/loop.out", "100\n")
        #expect(try folder.run(["test", "s"]).status == 0)
        let capped = try folder.run(["test", "--max-steps", "50", "s"])
        #expect(capped.status == 1, "\(capped)")
        #expect(capped.out.contains("more than 50 statements executed; raise the limit with --max-steps"), "\(capped)")
        #expect(try folder.run(["test", "--max-steps", "500", "s"]).status == 0)
        try folder.write("s/loop.kvo", "// kvo-run: --max-steps 500\n" + loop)
        #expect(try folder.run(["test", "--max-steps", "50", "s"]).status == 0, "the directive raises the limit")
        try folder.write("s/loop.kvo", "// kvo-run: --max-steps=50\n" + loop)
        #expect(try folder.run(["test", "s"]).status == 1)
        // Depth and the legacy dealloc rule, in both places.
        let deep = "func f(_ n: Int) -> Int {\n    if n == 0 { return 0 }\n    return f(n - 1)\n}\nprint(f(50))\n"
        try folder.write("s/loop.kvo", deep)
        try folder.write("s/loop.out", "0\n")
        #expect(try folder.run(["test", "s"]).status == 0)
        let shallow = try folder.run(["test", "--max-depth", "10", "s"])
        #expect(shallow.out.contains("raise it with --max-depth"), "\(shallow)")
        try folder.write("s/loop.kvo", "// kvo-run: --max-depth 10\n" + deep)
        #expect(try folder.run(["test", "s"]).out.contains("raise it with --max-depth"))
        let dealloc = """
            class Account: NSObject { @objc dynamic var balance = 0 }
            class Watcher: NSObject { }
            let w = Watcher()
            let a = Account()
            a.addObserver(w, forKeyPath: "balance")
            release(a)
            print("done")

            """
        try folder.write("s/loop.kvo", dealloc)
        try folder.write("s/loop.out", "done\n")
        #expect(try folder.run(["test", "s"]).status == 0)
        let legacy = try folder.run(["test", "--legacy-dealloc", "s"])
        #expect(legacy.out.contains("NSInternalInconsistencyException"), "\(legacy)")
        try folder.write("s/loop.kvo", "// kvo-run: --legacy-dealloc\n" + dealloc)
        #expect(try folder.run(["test", "s"]).out.contains("NSInternalInconsistencyException"))
        // Nonsense is refused, naming what is accepted.
        try folder.write("s/loop.kvo", "// kvo-run: --max-steps lots\n" + loop)
        let nonsense = try folder.run(["test", "s"])
        #expect(nonsense.out.contains("'--max-steps' must be a positive integer, got 'lots'"), "\(nonsense)")
        #expect(try folder.run(["test", "--max-steps", "0", "s"]).status == 64)
    }

    @Test func goldenFilesWithCRLFLineEndingsMatch() throws {
        let folder = try Folder()
        try folder.write("s/crlf.kvo", "print(1)\nprint(2)\n")
        try folder.write("s/crlf.out", "1\r\n2\r\n")
        let result = try folder.run(["test", "s"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func diffsArePaintedOnlyOnRequest() {
        let painted = TestCommand.painted("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n z")
        #expect(painted.contains("\u{1B}[31m-x"))
        #expect(painted.contains("\u{1B}[32m+y"))
        #expect(painted.hasSuffix("\n z"))
    }

    // MARK: Reading files

    @Test func aByteOrderMarkIsSkipped() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("bom.kvo")
        try Data([0xEF, 0xBB, 0xBF] + Array("print(1)\n".utf8)).write(to: path)
        let result = try folder.run(["bom.kvo"])
        #expect(result.status == 0, "\(result)")
        #expect(result.out == "1\n")
    }

    @Test func invalidUTF8IsAnErrorWithItsLineAndColumn() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("bad.kvo")
        try Data(Array("print(1)\nprint(\"a".utf8) + [0xFF] + Array("b\")\n".utf8)).write(to: path)
        let result = try folder.run(["bad.kvo"])
        #expect(result.status == 2)
        #expect(result.out == "")
        #expect(
            result.err == "bad.kvo:2:9: error: invalid UTF-8 (byte 0xFF); scenarios are UTF-8: save the file as UTF-8\n"
        )
    }

    @Test func crlfFilesShowTheRightLineAndCaret() throws {
        let folder = try Folder()
        try folder.write("crlf.kvo", "print(1)\r\nprint(zz)\r\nprint(3)\r\n")
        let result = try folder.run(["crlf.kvo"])
        #expect(result.status == 2)
        #expect(result.err == "crlf.kvo:2:7: error: cannot find 'zz' in scope\nprint(zz)\n      ^~\n")
    }

    @Test func aDirectoryOrAnUnreadableFileIsNamed() throws {
        let folder = try Folder()
        try folder.write("sub/x.kvo", "print(1)\n")
        let directory = try folder.run(["sub"])
        #expect(directory.status == 64)
        #expect(directory.err == "kvo-run: cannot read 'sub': it is a directory\n")
        let locked = try folder.write("locked.kvo", "print(1)\n")
        chmod(locked, 0)
        defer { chmod(locked, 0o644) }
        if getuid() != 0 {
            let result = try folder.run(["locked.kvo"])
            #expect(result.status == 64)
            #expect(result.err == "kvo-run: cannot read 'locked.kvo': Permission denied\n")
        }
    }

    // MARK: The JSON contract (SPEC §8.2), issue 26 and issue 27 rule 10

    /// Invalid UTF-8 was text on standard error under `--format json`; every
    /// error about the file itself is now an `error` event naming the file.
    @Test func errorsAboutTheFileAreJSONEvents() throws {
        let folder = try Folder()
        let bad = folder.url.appendingPathComponent("bad.kvo")
        try Data([0x70, 0x72, 0x69, 0x6E, 0x74, 0x28, 0x31, 0x29, 0x0A, 0x6C, 0x65, 0x74, 0x20, 0xFF, 0x0A]).write(
            to: bad)
        let utf8 = try folder.run(["--format", "json", "bad.kvo"])
        #expect(utf8.status == 2 && utf8.err.isEmpty, "\(utf8)")
        #expect(
            utf8.out
                == #"{"event":"error","message":"invalid UTF-8 (byte 0xFF); scenarios are UTF-8: save the file as UTF-8","line":2,"column":5,"file":"bad.kvo"}"#
                + "\n")
        let missing = try folder.run(["--format", "json", "gone.kvo"])
        #expect(missing.status == 64 && missing.err.isEmpty, "\(missing)")
        #expect(
            missing.out
                == #"{"event":"error","message":"cannot read 'gone.kvo': No such file or directory","file":"gone.kvo"}"#
                + "\n")
        let stdin = try folder.run(["--format", "json", "-"], stdin: .pipe("let \u{1}x = \"\\(1)\"\n"))
        #expect(stdin.err.isEmpty, "\(stdin)")
        let folderAsFile = try folder.run(["check", "--format", "json", "."])
        #expect(folderAsFile.status == 64 && folderAsFile.err.isEmpty, "\(folderAsFile)")
        #expect(folderAsFile.out.contains(#""message":"cannot read '.': it is a directory","file":"."}"#))
        // Text stays as it was: a diagnostic on standard error.
        let text = try folder.run(["bad.kvo"])
        #expect(text.status == 2 && text.out.isEmpty, "\(text)")
        #expect(text.err.hasPrefix("bad.kvo:2:5: error: invalid UTF-8 (byte 0xFF)"), "\(text)")
    }

    /// `check --format json` of several files: each event names its file,
    /// and the errors come after the warnings (the last line of a status-2
    /// run was the warning).
    @Test func checkJSONNamesTheFileAndEndsWithTheErrors() throws {
        let folder = try Folder()
        let warningAfterError = """
            let z = nope
            class Employee { var salary: Double = 0 }
            class Department {
                var employees: [Employee]
                @affectedBy(employees.salary)
                var totalSalary: Double { 0 }
            }

            """
        try folder.write("a.kvo", warningAfterError)
        try folder.write("b.kvo", "print(nothing)\n")
        let check = try folder.run(["check", "--format", "json", "a.kvo", "b.kvo"])
        #expect(check.status == 2, "\(check)")
        let lines = check.outLines
        #expect(lines.count == 3, "\(check)")
        #expect(lines.first?.hasPrefix(#"{"event":"warning","#) == true, "\(check)")
        #expect(lines.first?.hasSuffix(#""line":5,"column":17,"file":"a.kvo"}"#) == true, "\(check)")
        #expect(
            lines.dropFirst().first
                == #"{"event":"error","message":"cannot find 'nope' in scope","line":1,"column":9,"file":"a.kvo"}"#)
        #expect(
            lines.last
                == #"{"event":"error","message":"cannot find 'nothing' in scope","line":1,"column":7,"file":"b.kvo"}"#)
        let run = try folder.run(["--format", "json", "a.kvo"])
        #expect(run.status == 2, "\(run)")
        #expect(
            run.outLines.last
                == #"{"event":"error","message":"cannot find 'nope' in scope","line":1,"column":9,"file":"a.kvo"}"#)
        // Text keeps the source order, as compilers print.
        let text = try folder.run(["check", "a.kvo"])
        #expect(text.err.hasPrefix("a.kvo:1:9: error: cannot find 'nope' in scope"), "\(text)")
    }

    /// `--max-depth -1` said "Missing value for '--max-depth'".
    @Test func negativeLimitsAreNamedWithTheirValue() throws {
        let folder = try Folder()
        try folder.write("p.kvo", "print(1)\n")
        for (arguments, message) in [
            (["--max-depth", "-1", "p.kvo"], "Error: --max-depth must be a positive integer up to 100000, got -1\n"),
            (["--max-depth", "0", "p.kvo"], "Error: --max-depth must be a positive integer up to 100000, got 0\n"),
            (["--max-steps", "-5", "p.kvo"], "Error: --max-steps must be a positive integer, got -5\n"),
            (["graph", "p.kvo", "--at", "-2"], "Error: --at must be a line number, 1 or more, got -2\n"),
        ] {
            let result = try folder.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.err.hasPrefix(message), "\(arguments): \(result)")
        }
        let fine = try folder.run(["--max-depth", "5", "--max-steps", "10", "p.kvo"])
        #expect(fine.status == 0 && fine.out == "1\n", "\(fine)")
    }

    /// Every `exception` event carries the line and column of the statement
    /// that raised it (where its caret would point: the call): caught at top level, caught after being raised in a
    /// function or in a handler, and the final uncaught one.
    @Test func everyJSONExceptionEventHasALineAndColumn() throws {
        let folder = try Folder()
        try folder.write(
            "ex.kvo",
            """
            class A {
                var n: Int = 0
                func observeValue(keyPath, object, change, context) {
                    print(self.value(forKey: "nope"))
                }
            }
            func boom() {
                let arr = [1]
                arr.value(forKey: "nope2")
            }
            let a = A()
            a.addObserver(a, forKeyPath: "n", options: [.new])
            do { a.n = 1 } catch { }
            do { boom() } catch { }
            do {
                a.removeObserver(a, forKeyPath: "zz")
            } catch { }
            a.removeObserver(a, forKeyPath: "zz")

            """)
        for arguments in [["--format", "json", "ex.kvo"], ["--keep-going", "--format", "json", "ex.kvo"]] {
            let result = try folder.run(arguments)
            #expect(result.status == 1, "\(result)")
            let exceptions = result.outLines.filter { $0.contains(#""event":"exception""#) }
            let places = exceptions.map { line in
                line.range(of: #""line":"#).map { String(line[$0.lowerBound...]) } ?? "none"
            }
            #expect(
                places == [
                    #""line":4,"column":14}"#, #""line":9,"column":14}"#, #""line":16,"column":21}"#,
                    #""line":18,"column":17}"#,
                ], "\(result)")
            #expect(exceptions.last?.contains(#""caught":false"#) == true)
        }
    }
}
