import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Foundation
import Testing
import KVOCore
@testable import KVOScript

/// Issue 15, "Hostile inputs", in-process: how hostile text is shown, flat
/// chains in the parser, and the output writer's failures.
@Suite(.serialized) struct HostileTextTests {
    // MARK: Diagnostics escape control characters, caret aligned

    @Test func diagnosticSourceLinesEscapeControlsAndKeepTheCaretAligned() {
        // Columns: ESC 6, U+202E 13, DEL 14, U+85 15, U+2066 16, "bad" 17, NUL 20, tab 21, x 22.
        let source = SourceText("let a\u{1B}[2J = \u{202E}\u{7F}\u{85}\u{2066}bad\u{0}\tx")
        let shown = "let a\\u{1B}[2J = \\u{202E}\\u{7F}\\u{85}\\u{2066}bad\\0\tx"
        let diagnostic = Diagnostic(.error, "unknown 'bad'", at: SourceLocation(line: 1, column: 17), length: 3)
        #expect(
            diagnostic.render(file: "f.kvo", source: source)
                == "f.kvo:1:17: error: unknown 'bad'\n" + shown + "\n" + String(repeating: " ", count: 45) + "^~~")
        let onEscape = Diagnostic(
            .error, "unexpected character U+1B in the scenario", at: SourceLocation(line: 1, column: 6))
        #expect(onEscape.render(file: "f.kvo", source: source).hasSuffix("\n     ^~~~~~"))
        let afterTab = Diagnostic(.error, "x", at: SourceLocation(line: 1, column: 22))
        #expect(
            afterTab.render(file: "f.kvo", source: source).hasSuffix("\n" + String(repeating: " ", count: 50) + "\t^"))
    }

    @Test func diagnosticMessagesAndFileNamesEscapeControls() {
        let diagnostic = Diagnostic(.error, "no key '\u{1B}[31m'\nsecond line", at: SourceLocation(line: 9, column: 1))
        #expect(
            diagnostic.render(file: "a\u{7}.kvo", source: SourceText(""))
                == "a\\u{7}.kvo:9:1: error: no key '\\u{1B}[31m'\nsecond line")
    }

    @Test func longLinesKeepTheirWindowAndCaret() {
        let line = String(repeating: "x", count: 300) + "\u{1B}" + String(repeating: "y", count: 100)
        let diagnostic = Diagnostic(.error, "here", at: SourceLocation(line: 1, column: 301), length: 2)
        let lines = diagnostic.render(file: "f", source: SourceText(line)).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("…x") && lines[1].hasSuffix("y…") && lines[1].contains("\\u{1B}"))
        #expect(lines[2] == String(repeating: " ", count: 80) + "^~~~~~~")
    }

    @Test func theLexerNamesControlCharactersByNumber() {
        let (_, diagnostics) = Parser.parse("let x = \u{1B}\u{7F}1")
        #expect(
            diagnostics.map(\.message) == [
                "unexpected character U+1B in the scenario", "unexpected character U+7F in the scenario",
            ])
    }

    // MARK: Strings in change dictionaries and collections

    /// Every control and bidi character is escaped, with the escapes of
    /// old-style property lists that NSArray's description uses (SPEC §3,
    /// rule 5 of issue 27): C escapes, octal for other ASCII controls, `\U`
    /// and four hex digits past ASCII.
    @Test func quotedStringsEscapeEveryControlAndBidiCharacter() {
        #expect(Value.quoteIfNeeded("a\rb") == #""a\rb""#)
        #expect(Value.quoteIfNeeded("\0") == #""\000""#)
        #expect(Value.quoteIfNeeded("\u{1B}[0m") == #""\033[0m""#)
        #expect(Value.quoteIfNeeded("\u{7F}\u{80}\u{9F}") == #""\177\U0080\U009f""#)
        for scalar in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = String(Character(Unicode.Scalar(UInt32(scalar))!))
            #expect(Value.quoteIfNeeded(text) == "\"\\U\(String(scalar, radix: 16))\"")
        }
        // Only ASCII letters and digits stay bare; tab, newline, quotes and
        // everything past ASCII are escaped.
        #expect(Value.quoteIfNeeded("plain1") == "plain1")
        #expect(Value.quoteIfNeeded("plain_1.$") == #""plain_1.$""#)
        #expect(Value.quoteIfNeeded("é \t\n\"\\ 🙂\u{200F}") == #""\U00e9 \t\n\"\\ \Ud83d\Ude42\U200f""#)
        #expect(Value.string("x\u{1B}y").collectionDescription == #""x\033y""#)
        #expect(Value.array([.string("\r")]).collectionDescription == #"("\r")"#)
        // print of a plain string is what the user asked to print: raw.
        #expect(Value.string("x\u{1B}y").printDescription == "x\u{1B}y")
    }

    @Test func jsonStringsEscapeControlAndBidiCharacters() {
        #expect(
            JSONFormat.string("\u{1B}\u{7F}\u{85}\u{202E}\u{2069}\r\0") == #""\u001b\u007f\u0085\u202e\u2069\r\u0000""#)
        #expect(JSONFormat.string("é🙂") == "\"é🙂\"")
    }

    // MARK: NaN and infinities in JSON

    @Test func jsonEncodesNaNAndInfinitiesAsStrings() {
        #expect(JSONFormat.encode(.double(.nan)) == #""nan""#)
        #expect(JSONFormat.encode(.double(.infinity)) == #""inf""#)
        #expect(JSONFormat.encode(.double(-.infinity)) == #""-inf""#)
        #expect(JSONFormat.encode(.array([.double(.nan), .double(1.5)])) == #"["nan",1.5]"#)
    }

    // MARK: Indentation

    @Test func indentationIsCapped() {
        #expect(TextFormat.indent(0) == "")
        #expect(TextFormat.indent(3) == "      ")
        #expect(TextFormat.indent(100) == String(repeating: " ", count: 200))
        #expect(TextFormat.indent(100_000) == String(repeating: " ", count: 200))
    }

    /// Lines deeper than 100 handlers are counted, not written: one line says
    /// how many, where they would have been, before whatever comes next.
    @Test func linesDeeperThanTheCapAreCountedNotWritten() {
        let writer = OutputWriter(capturing: ())
        let renderer = EventRenderer(format: .text, out: writer, err: writer)
        renderer.emit(.print(text: "shown", depth: 100))
        renderer.emit(.print(text: "a\nb", depth: 101))
        renderer.emit(.print(text: "c", depth: 5000))
        renderer.emit(.print(text: "back", depth: 0))
        renderer.emit(.print(text: "d", depth: 102))
        renderer.flush()
        let pad = String(repeating: " ", count: 200)
        let cut = " nested deeper than 100 handlers not shown (--format json shows every event)\n"
        #expect(
            writer.capturedText == pad + "shown\n" + pad + "… 3 lines" + cut + "back\n" + pad + "… 1 line" + cut)
    }

    // MARK: Flat chains

    @Test func flatChainsAreNotNesting() {
        let sum = "let x = " + Array(repeating: "1", count: 10_000).joined(separator: " + ")
        #expect(onLargeStack { Parser.parse(sum).diagnostics }.isEmpty)
        let chain = "if a { }" + String(repeating: " else if a { }", count: 10_000) + " else { }"
        let (statements, diagnostics) = onLargeStack { Parser.parse(chain) }
        #expect(diagnostics.isEmpty)
        if case .ifElse(let branches, let otherwise, _)? = statements.first {
            #expect(branches.count == 10_001 && otherwise?.isEmpty == true)
        } else {
            Issue.record("not an if: \(statements)")
        }
        // Mixed levels keep precedence and left associativity.
        #expect(SX.stmt(Parser.parse("a - b - c * d * e + f").statements[0]) == "(+ (- (- a b) (* (* c d) e)) f)")
    }

    @Test func nestingInsideAChainStillCounts() {
        let deep = "let x = 1 + " + String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300)
        #expect(
            onLargeStack { Parser.parse(deep).diagnostics }.map(\.message) == [
                "nesting deeper than 256 levels; split the expression or block"
            ])
    }

    @Test func longChainsCompileAndRunOnASmallStack() {
        // 512 KB is a secondary thread's default; a recursive compile of
        // 20,000 terms would need several MB.
        let source = "let x = " + Array(repeating: "2", count: 20_000).joined(separator: " * 1 + ") + "\nprint(x)\n"
        let box = ResultBox()
        let thread = Thread {
            let writer = OutputWriter(capturing: ())
            let session = Session.commandLine(
                options: RunOptions(), output: EventRenderer(format: .text, out: writer, err: writer))
            box.status = session.run(source, file: "chain.kvo")
            box.text = writer.capturedText
            box.done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        box.done.wait()
        #expect(box.status == 0)
        #expect(box.text == "40000\n")
    }

    final class ResultBox: @unchecked Sendable {
        var status: Int32 = -1
        var text = ""
        let done = DispatchSemaphore(value: 0)
    }

    // MARK: The output writer reports failures

    @Test func aCapturingWriterStopsAtItsLimitAndStopsTheRun() {
        let writer = OutputWriter(capturing: ())
        writer.captureLimit = 1 << 16
        let session = Session.commandLine(
            options: RunOptions(), output: EventRenderer(format: .text, out: writer, err: writer))
        let status = onLargeStack { session.run("while true { print(\"0123456789\") }\n", file: "loop.kvo") }
        #expect(status == ExitStatus.failure)
        #expect(writer.failure?.hasSuffix("its output was cut there") == true)
        #expect(writer.captured.count == 1 << 16)
        // The next run starts afresh.
        let next = capturingSession().session
        #expect(next.run("print(1)\n", file: "next.kvo") == 0)
    }

    @Test func aDescriptorWriterReportsAFailedWrite() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = OutputWriter(descriptor: descriptor)
        writer.write("hello\n")
        #expect(writer.failure == nil)
        writer.flush()
        #expect(writer.failure == "cannot write descriptor \(descriptor): No space left on device")
        #expect(writer.stop.pending == .outputFailed)
    }
}
