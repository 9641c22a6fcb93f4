import _KVOTestSupport
import Foundation
import Testing

/// Issue 29: the tutorial could not be followed in the REPL (step 2
/// redeclares `class Account`). Every step of docs/tutorial.md, read from the
/// document when the test runs, is pasted into one REPL session in order, as
/// a reader would, after the REPL commands the tutorial tells a REPL reader
/// to type before it (`:reset`, `:explain on`); each step must print what the
/// tutorial shows, and nothing may fail.
@Suite(.serialized) struct TutorialREPLTests {
    /// A step: its code, what it prints, and the REPL commands the prose
    /// before it names.
    struct Step {
        let location: String
        let source: String
        let expected: String
        let commands: [String]
    }

    static func steps() throws -> [Step] {
        let markdown = try String(
            contentsOf: packageRoot().appendingPathComponent("docs/tutorial.md"), encoding: .utf8)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let fences = DocExample.fences(in: markdown)
        var steps: [Step] = []
        for (index, fence) in fences.enumerated() where fence.info.first == "kvo" {
            #expect(!fence.info.contains("norun"), "every step of the tutorial runs")
            guard index + 1 < fences.count, fences[index + 1].info.first == "output" else {
                Issue.record("docs/tutorial.md:\(fence.line): a step without an output block")
                continue
            }
            // The prose from the end of the previous block to this one.
            var proseStart = 0
            if index > 0 {
                let previous = fences[index - 1]
                proseStart =
                    previous.line
                    + previous.body.split(separator: "\n", omittingEmptySubsequences: false)
                    .count
            }
            let prose = lines[min(proseStart, fence.line - 1)..<(fence.line - 1)].joined(separator: "\n")
            let commands = [":reset", ":explain on", ":explain off"].filter { prose.contains("`\($0)`") }
            steps.append(
                Step(
                    location: "docs/tutorial.md:\(fence.line)", source: fence.body,
                    expected: fences[index + 1].body, commands: commands))
        }
        return steps
    }

    @Test func everyStepOfTheTutorialRunsInTheREPLInOrder() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 12, "the tutorial's steps were not found")
        let terminal = try Terminal(environment: ["KVO_HISTORY": ""])
        terminal.expect("kvo> ")
        for (number, step) in steps.enumerated() {
            for command in step.commands {
                let replies = [
                    ":reset": "session reset", ":explain on": "explain on:", ":explain off": "explain off",
                ]
                terminal.clear()
                terminal.send(command + "\r")
                terminal.expect("\(command)\r\n")
                terminal.expect(replies[command] ?? "kvo> ")
            }
            terminal.clear()
            // The whole step at once, as a paste; a last line marks its end.
            let marker = "end of step \(number + 1)"
            let pasted = step.source.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\r")
            terminal.send(pasted + "print(\"\(marker)\")\r")
            // A Swift step compiles each entry (and may first build the runtime, once).
            let swift = step.source.contains("import Foundation")
            guard terminal.expect("\r\n\(marker)\r\n", timeout: swift ? 900 : 20) else { return }
            let transcript = terminal.transcript
            #expect(!transcript.contains("error:"), "\(step.location) in the REPL:\n\(transcript)")
            // What the tutorial shows, line by line and in order (the typed
            // lines, echoed by the terminal, come between).
            var rest = transcript[...]
            for line in step.expected.split(separator: "\n") {
                guard let found = rest.range(of: "\r\n" + line + "\r\n") else {
                    Issue.record("\(step.location): '\(line)' not printed (in order) in the REPL:\n\(transcript)")
                    break
                }
                rest = rest[rest.index(found.upperBound, offsetBy: -2)...]
            }
        }
    }
}
