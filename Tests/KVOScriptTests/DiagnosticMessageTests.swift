import Testing
@testable import KVOScript

/// Diagnostics are values: each carries the identifier of its message case
/// (`parser.expectedCommaOrClose`) beside its words, so code that reacts to
/// one problem compares identifiers, never the start of the text.
@Suite struct DiagnosticMessageTests {
    func checked(_ source: String) -> [Diagnostic] {
        let (statements, diagnostics) = Parser.parse(source)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let checker = Checker(environment: Environment())
        checker.check(statements)
        return checker.diagnostics
    }

    @Test func theIdentifierIsTheStageAndTheCaseName() {
        #expect(LexerMessage.unterminatedString.id.description == "lexer.unterminatedString")
        #expect(
            ParserMessage.expectedCommaOrClose(close: ")", list: .arguments, found: "'x'").id.description
                == "parser.expectedCommaOrClose")
        #expect(CheckerMessage.notInScope("x", suggestion: "").id == MessageID(domain: "checker", id: "notInScope"))
        #expect(SessionMessage.loopStartedHere.id.description == "session.loopStartedHere")
    }

    @Test func eachStageReportsItsOwnMessageIdentifiers() {
        #expect(Lexer.tokenize("let s = \"open").diagnostics.map(\.id) == [LexerMessage.unterminatedString.id])
        #expect(Lexer.tokenize("/* open").diagnostics.map(\.id) == [LexerMessage.unterminatedBlockComment.id])
        #expect(Parser.parse("f(1 2)").diagnostics.map(\.id.id) == ["expectedCommaOrClose"])
        #expect(Parser.parse("struct S {}").diagnostics.map(\.id.id) == ["unsupportedDeclaration"])
        #expect(checked("print(nowhere)").map(\.id.id) == ["notInScope"])
    }

    @Test func theWordsAreTodays() {
        // The goldens pin every message; these pin the ones built from parts.
        #expect(
            Parser.parse("f(1 2)").diagnostics.map(\.message)
                == ["expected ',' or ')' in the argument list, found '2'"])
        #expect(
            ParserMessage.expectedCommaOrClose(close: ")", list: .affectedBy, found: "'x'").text
                == "expected ',' or ')' in '@affectedBy(…)'")
        #expect(LexerMessage.unexpectedCharacter("\u{7}").text == "unexpected character U+7 in the scenario")
        #expect(LexerMessage.invalidEscape(nil).text == "invalid escape sequence '\\' in string literal")
        #expect(
            CheckerMessage.arity(function: "f", parameters: ["a"], given: 2).text
                == "'f' takes 1 argument (a), but 2 were given")
        #expect(
            SessionMessage.runtimeError("boom", loop: nil, whence: " (in f)", advice: "raise it").text
                == "boom (in f); raise it")
        #expect(
            SessionMessage.runtimeError("boom", loop: "a.x", whence: "", advice: nil).text
                == "boom; a notification loop: a.x repeats, each handler changing what the next observes")
    }

    @Test func aDiagnosticFromElsewhereIsFreeText() {
        let diagnostic = Diagnostic(.error, "swiftc said so", at: SourceLocation(line: 1, column: 1))
        #expect(diagnostic.id == .freeText)
        #expect(diagnostic.message == "swiftc said so")
    }

    /// The REPL's continuation rule and the parser's quieting after an
    /// unterminated string recognise the lexer's errors by identifier.
    @Test func unterminatedLiteralsAreRecognisedByIdentifier() {
        #expect(EntryShape.of("/* still open") == .open)
        #expect(EntryShape.of("let s = \"open (") == .complete)
        // The parser's complaints about the open '(' on that line are noise.
        #expect(Parser.parse("let s = \"open (").diagnostics.map(\.id) == [LexerMessage.unterminatedString.id])
    }
}
