import Foundation
import RewriterProtocol
import Testing
import _KVOTestSupport

@testable import KVORun

/// The rewriter as golden pairs (Tests/RewriterPairs): each `NAME.swift` is
/// rewritten by the helper, through kvo-run's own client, and must give
/// `NAME.expected` byte for byte: the rewritten source, then the rewriter's
/// warnings and errors, if any, after a `// ---- remarks ----` line.
/// `KVO_UPDATE_PAIRS=1` writes the expected files instead (read the diff).
@Suite struct RewriterPairTests {
    static let folder = packageRoot().appendingPathComponent("Tests/RewriterPairs")

    static let inputs: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted()

    /// What a pair's expected file holds for `program`.
    static func expectedText(_ program: RewrittenProgram) -> String {
        var text = program.source
        let remarks =
            program.warnings.map { ("warning", $0) } + program.errors.map { ("error", $0) }
        if !remarks.isEmpty {
            if !text.hasSuffix("\n") { text += "\n" }
            text += "// ---- remarks ----\n"
            for (kind, remark) in remarks {
                text += "// \(kind) \(remark.line):\(remark.column) (\(remark.length)): \(remark.message)\n"
            }
        }
        return text
    }

    @Test func thereAreEnoughPairs() {
        #expect(Self.inputs.count >= 20, "\(Self.inputs)")
    }

    @Test(arguments: inputs) func pair(_ name: String) throws {
        let input = Self.folder.appendingPathComponent(name)
        let expectedFile = input.deletingPathExtension().appendingPathExtension("expected")
        let source = try String(contentsOf: input, encoding: .utf8)
        let actual = Self.expectedText(try TestRewriter.rewrite(source, fileName: name))
        if ProcessInfo.processInfo.environment["KVO_UPDATE_PAIRS"] == "1" {
            try actual.write(to: expectedFile, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)
        #expect(actual == expected, "\(name): rewritten differently; KVO_UPDATE_PAIRS=1 rewrites the expected file")
    }

    /// The helper's own `kvo-rewriter FILE` (the contributor's view, as
    /// docs/architecture.md tells) prints what kvo-run compiles.
    @Test func theHelperPrintsARewrittenFile() throws {
        let rewriter = try TestRewriter.rewriter()
        let input = Self.folder.appendingPathComponent("objc-dynamic-property.swift")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rewriter.executable)
        process.arguments = [input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let printed = String(decoding: data, as: UTF8.self)
        let direct = try TestRewriter.rewrite(String(contentsOf: input, encoding: .utf8), fileName: input.path)
        #expect(process.terminationStatus == 0)
        #expect(printed == direct.source)
    }
}
