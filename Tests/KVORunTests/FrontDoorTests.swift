import Foundation
import Testing
import _KVOTestSupport

/// A user who comes with Swift code sees on the first screen of `--help`,
/// of the README and of the man page that `kvo-run file.swift` runs it
/// (issue 42, item 1).
@Suite struct FrontDoorTests {
    /// A terminal's first screen: 24 lines.
    static let screen = 24

    @Test func helpShowsASwiftProgramOnItsFirstScreen() throws {
        let help = try CLI.run(["--help"], in: FileManager.default.temporaryDirectory)
        #expect(help.status == 0, "\(help)")
        let first = help.out.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.screen)
            .joined(separator: "\n")
        #expect(first.contains("Swift programs and scenarios"), "\(first)")
        #expect(first.contains("kvo-run [run] FILE.swift|FILE.kvo"), "\(first)")
        #expect(first.contains("kvo-run account.swift "), "\(first)")
        for subcommand in ["run", "check", "test", "graph", "trace"] {
            let own = try CLI.run([subcommand, "--help"], in: FileManager.default.temporaryDirectory)
            #expect(own.out.contains("Swift") || own.out.contains(".swift"), "\(subcommand) --help:\n\(own.out)")
        }
    }

    @Test func theReadmeShowsASwiftProgramAndAScenarioOnItsFirstScreen() throws {
        let readme = try String(contentsOf: packageRoot().appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        // A browser's first screen of a README: about 50 lines.
        let first = lines.prefix(50).joined(separator: "\n")
        #expect(first.contains("kvo-run account.swift"))
        #expect(first.contains("```kvo file=account.swift\nimport Foundation\n"))
        #expect(first.contains("```kvo file=bank.kvo\n"))
    }

    @Test func theManPageNamesSwiftFirst() throws {
        let page = try String(contentsOf: packageRoot().appendingPathComponent("docs/kvo-run.1"), encoding: .utf8)
        #expect(page.contains(".Nd run Swift programs and scenarios"))
        #expect(page.contains(".Ar FILE.swift | FILE.kvo"))
    }
}
