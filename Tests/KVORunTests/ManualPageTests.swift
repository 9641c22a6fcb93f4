import Foundation
import Testing
import _KVOTestSupport

/// The man page (docs/kvo-run.1, written by hand in mdoc) says what the tool
/// does (issue 42, item 4): it renders without a warning, and names every
/// subcommand and option the command line parser knows (read from the
/// binary's own `--experimental-dump-help`), every environment variable the
/// code reads, and every exit status docs/cli.md lists.
@Suite struct ManualPageTests {
    static let page =
        (try? String(contentsOf: packageRoot().appendingPathComponent("docs/kvo-run.1"), encoding: .utf8)) ?? ""

    @Test func rendersWithoutWarnings() throws {
        let groff = try #require(
            ["/usr/bin/groff", "/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "groff is missing: make setup installs groff-base")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: groff)
        process.arguments = ["-mandoc", "-ww", "-z", packageRoot().appendingPathComponent("docs/kvo-run.1").path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(said == "", "groff warns about docs/kvo-run.1:\n\(said)")
    }

    /// Each top-level item of COMMANDS, by the subcommand it describes:
    /// its lines up to the next top-level item.
    static func sections() -> [String: String] {
        var sections: [String: String] = [:]
        var current: String?
        var depth = 0
        var inCommands = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".Sh ") {
                inCommands = line == ".Sh COMMANDS"
                current = nil
                continue
            }
            guard inCommands else { continue }
            if line.hasPrefix(".Bl") { depth += 1 }
            if line.hasPrefix(".El") { depth -= 1 }
            if depth == 1, line.hasPrefix(".It ") {
                let words = line.split(separator: " ").map(String.init)
                // `.It Nm Oo Cm run Oc Ar FILE` is run; `.It Cm test …` is test.
                if let index = words.firstIndex(of: "Cm"), index + 1 < words.count {
                    current = words[index + 1]
                } else {
                    current = words.dropFirst().joined(separator: " ")
                }
            }
            if let current { sections[current, default: ""] += line + "\n" }
        }
        return sections
    }

    @Test func namesEverySubcommandAndOption() throws {
        let dump = try CLI.run(["--experimental-dump-help"], in: FileManager.default.temporaryDirectory)
        #expect(dump.status == 0, "\(dump)")
        let tool = try #require(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        let root = try #require(tool["command"] as? [String: Any])
        let subcommands = try #require(root["subcommands"] as? [[String: Any]])
        let sections = Self.sections()
        #expect(subcommands.count >= 5)
        for subcommand in subcommands {
            let name = try #require(subcommand["commandName"] as? String)
            let section = try #require(sections[name], "no `.It Cm \(name)` under COMMANDS in docs/kvo-run.1")
            for argument in subcommand["arguments"] as? [[String: Any]] ?? [] {
                for spelling in argument["names"] as? [[String: Any]] ?? [] {
                    guard let option = spelling["name"] as? String, let kind = spelling["kind"] as? String else {
                        continue
                    }
                    // -h/--help and --version: every subcommand has them, said once.
                    if ["help", "h", "version"].contains(option) { continue }
                    let mdoc = kind == "long" ? "Fl -\(option)" : "Fl \(option)"
                    #expect(section.contains(mdoc), "docs/kvo-run.1 says nothing of \(name)'s \(mdoc)")
                }
            }
        }
        #expect(Self.page.contains("Fl -version") && Self.page.contains("Fl -help"))
        #expect(Self.page.contains("Fl -generate-completion-script"))
    }

    /// Every variable the tool reads: `getenv("X")` and
    /// `environmentValue("X")` in the command-line targets (the runtime's
    /// own variables are kvo-run's channel to a compiled program, not the
    /// user's), in the man page and in docs/cli.md's Environment table.
    @Test func namesEveryEnvironmentVariable() throws {
        var names: Set<String> = ["NO_COLOR", "TERM"]
        let pattern = try Regex(#"(?:getenv|environmentValue)\("([A-Z_]+)"\)"#)
        for target in ["Sources/KVORun", "Sources/KVOHost", "Sources/kvo-run"] {
            let folder = packageRoot().appendingPathComponent(target)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: pattern) {
                    if let name = match.output[1].substring { names.insert(String(name)) }
                }
            }
        }
        #expect(names.contains("KVO_SWIFTC") && names.contains("XDG_CACHE_HOME"))
        let cli = try String(contentsOf: packageRoot().appendingPathComponent("docs/cli.md"), encoding: .utf8)
        for name in names.sorted() {
            #expect(Self.page.contains(".It Ev \(name)\n"), "docs/kvo-run.1's ENVIRONMENT has no \(name)")
            #expect(cli.contains("| `\(name)"), "docs/cli.md's Environment table has no \(name)")
        }
    }

    /// The exit statuses of docs/cli.md's table, each in EXIT STATUS.
    @Test func namesEveryExitStatus() throws {
        let cli = try String(contentsOf: packageRoot().appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let table = try #require(cli.range(of: "## Exit status"))
        let statuses = cli[table.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("#") }
            .compactMap { line -> Int? in
                guard line.hasPrefix("| ") else { return nil }
                return Int(line.dropFirst(2).prefix { $0.isNumber })
            }
        #expect(statuses.count >= 4)
        let exitSection = try #require(Self.page.range(of: ".Sh EXIT STATUS"))
        for status in statuses {
            #expect(Self.page[exitSection.upperBound...].contains(".It \(status)\n"), "EXIT STATUS has no \(status)")
        }
    }
}
