import _KVOTestSupport
import Foundation
import KVOHost
import KVORun
import KVOScript
import Testing

/// A scenario shown in the documentation (`README.md`, `docs/*.md`) with the
/// output it must print, checked like a golden file.
///
/// A block fenced as ```` ```kvo ```` is a scenario; the next fenced block,
/// with only blank lines between, must be ```` ```output ````: all the scenario
/// prints (standard output and standard error in order) and, when the status
/// is not 0, a last line `# exit status: N`. Words after `kvo` in the fence:
/// `norun` (shown, never run: then no output block), `file=NAME.kvo` or
/// `file=NAME.swift` (the name diagnostics print; default `example.kvo`;
/// a `.swift` name makes the block a Swift program), `--format json`,
/// `--keep-going`, `--max-depth N`, `--max-steps N`, `--quiet`, `--explain`,
/// `--legacy-dealloc`.
struct DocExample: CustomTestStringConvertible, Sendable {
    /// `docs/tutorial.md:42`, the line of the opening fence.
    let location: String
    let source: String
    let expected: String?
    let norun: Bool
    let file: String
    let format: OutputFormatKind
    let options: RunOptions
    /// Why the fence cannot be run as written (an unknown word, no output block).
    let problem: String?

    var testDescription: String { location }

    /// Runs the scenario in-process and renders what it printed as a golden
    /// does; a Swift program (`import Foundation` first) is compiled and run
    /// as `kvo-run` runs it (SPEC §11.0), from a file named `file`.
    func actualOutput() -> String {
        let (status, text) =
            SwiftProgram.isSwift(source, file: file)
            ? compiledOutput() : runInterleaved(source, options: options, format: format, file: file)
        return status == 0 ? text : text + "# exit status: \(status)\n"
    }

    private func compiledOutput() -> (status: Int32, text: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-doc-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(file).path
        try? source.write(toFile: path, atomically: true, encoding: .utf8)
        let (text, status) = SwiftProgram.runCaptured(source, path: path, timeout: 60, options: options)
        return (status, text)
    }

    /// One fenced block of a Markdown file.
    struct Fence {
        let line: Int
        let info: [String]
        let body: String
        /// Whether only blank lines separate this block from the previous one.
        let adjacentToPrevious: Bool
    }

    static func fences(in markdown: String) -> [Fence] {
        var fences: [Fence] = []
        var open: (line: Int, info: [String], body: [Substring])?
        var blankSinceLastFence = true
        var lastFenceEnd = -1
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if var block = open {
                if trimmed.hasPrefix("```") && trimmed.allSatisfy({ $0 == "`" || $0 == " " }) {
                    let body = block.body.map { $0 + "\n" }.joined()
                    fences.append(
                        Fence(
                            line: block.line + 1, info: block.info, body: body,
                            adjacentToPrevious: lastFenceEnd >= 0 && blankSinceLastFence))
                    open = nil
                    lastFenceEnd = index
                    blankSinceLastFence = true
                } else {
                    block.body.append(line)
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                let info = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                open = (index, info, [])
            } else if !trimmed.isEmpty {
                blankSinceLastFence = false
            }
        }
        return fences
    }

    /// Every ```kvo block of one Markdown file.
    static func examples(in markdown: String, path: String) -> [DocExample] {
        let fences = fences(in: markdown)
        var examples: [DocExample] = []
        for (index, fence) in fences.enumerated() where fence.info.first == "kvo" {
            var problem: String?
            var norun = false
            var file = "example.kvo"
            var format = OutputFormatKind.text
            var options = RunOptions()
            var words = fence.info.dropFirst()[...]
            while let word = words.popFirst() {
                switch word {
                case "norun": norun = true
                case "--keep-going": options.keepGoing = true
                case "--quiet": options.quiet = true
                case "--explain": options.explain = true
                case "--legacy-dealloc": options.legacyDealloc = true
                case "--format":
                    guard let value = words.popFirst(), let kind = OutputFormatKind(rawValue: value) else {
                        problem = "--format needs text or json"
                        continue
                    }
                    format = kind
                case "--max-depth", "--max-steps":
                    guard let value = words.popFirst().flatMap({ Int($0) }), value > 0 else {
                        problem = "\(word) needs a positive number"
                        continue
                    }
                    if word == "--max-depth" { options.maxDepth = value } else { options.maxSteps = value }
                default:
                    if word.hasPrefix("file="), word.hasSuffix(".kvo") || word.hasSuffix(".swift") {
                        file = String(word.dropFirst(5))
                    } else {
                        problem =
                            "unknown word '\(word)' after ```kvo (norun, file=NAME.kvo, file=NAME.swift or a run option)"
                    }
                }
            }
            var expected: String?
            if index + 1 < fences.count, fences[index + 1].info.first == "output",
                fences[index + 1].adjacentToPrevious
            {
                expected = fences[index + 1].body
            }
            if !norun && expected == nil && problem == nil {
                problem = "a ```kvo block must be followed by an ```output block (or be marked ```kvo norun)"
            }
            if norun && expected != nil && problem == nil {
                problem = "a ```kvo norun block is followed by an ```output block that is never checked"
            }
            examples.append(
                DocExample(
                    location: "\(path):\(fence.line)", source: fence.body, expected: expected,
                    norun: norun, file: file, format: format, options: options,
                    problem: problem))
        }
        return examples
    }

    /// `README.md` and every Markdown file under `docs/`, relative to the package root.
    static let documents: [String] = {
        let root = packageRoot().path
        let docs = Files.find(under: root + "/docs", suffix: ".md").map { String($0.dropFirst(root.count + 1)) }
        return ["README.md"] + docs
    }()

    /// Every ```kvo block of the documentation.
    static let all: [DocExample] = documents.flatMap { path in
        let text = (try? String(contentsOfFile: packageRoot().path + "/" + path, encoding: .utf8)) ?? ""
        return examples(in: text, path: path)
    }
}
