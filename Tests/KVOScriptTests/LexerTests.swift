import _KVOTestSupport
import KVOHost
import Testing
@testable import KVOScript

/// docs/language.md#lexical: lexical structure.
@Suite struct LexerTests {
    /// The token kinds of `source`, without the final `.eof`; fails on diagnostics.
    func kinds(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Token.Kind] {
        let (tokens, diagnostics) = Lexer.tokenize(source)
        #expect(diagnostics.isEmpty, "unexpected diagnostics: \(diagnostics)", sourceLocation: sourceLocation)
        #expect(tokens.last?.kind == .eof, sourceLocation: sourceLocation)
        return tokens.dropLast().map(\.kind)
    }

    /// `line:column: message` for each diagnostic of `source`.
    func errors(_ source: String) -> [String] {
        Lexer.tokenize(source).diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }

    func at(_ line: Int, _ column: Int) -> KVOScript.SourceLocation {
        KVOScript.SourceLocation(line: line, column: column)
    }

    // MARK: Numbers

    @Test func integerAndDoubleLiterals() {
        #expect(
            kinds("42 1_000 3.5 1e3 2.5e-2 1E+2 0 9223372036854775807") == [
                .integer(42), .integer(1000), .double(3.5), .double(1000), .double(0.025), .double(100),
                .integer(0), .integer(Int.max),
            ])
    }

    @Test func underscoresInsideDoubles() {
        #expect(kinds("1_000.5 1_0e1_0") == [.double(1000.5), .double(10e10)])
    }

    @Test func numberTokensKnowWhereTheyStartAndHowLongTheyAre() {
        let (tokens, _) = Lexer.tokenize("let x = 1_000 + 3.25")
        let numbers = tokens.filter {
            switch $0.kind {
            case .integer, .double: return true
            default: return false
            }
        }
        #expect(numbers.map(\.location) == [at(1, 9), at(1, 17)])
        #expect(numbers.map(\.length) == [5, 4])
    }

    @Test func rangesAreNotDecimalPoints() {
        #expect(kinds("1..<3") == [.integer(1), .punct("..<"), .integer(3)])
        #expect(kinds("1...3") == [.integer(1), .punct("..."), .integer(3)])
    }

    @Test func anEWithoutDigitsIsNotAnExponent() {
        #expect(errors("1e") == ["1:2: 'e' is not valid in a number literal"])
        #expect(errors("12abc") == ["1:3: 'a' is not valid in a number literal"])
    }

    // MARK: Strings

    @Test func stringEscapes() {
        #expect(kinds(#""a\"b\\c\n\t\u{41}\u{1F600}""#) == [.string([.text("a\"b\\c\n\tA😀")])])
    }

    @Test func emptyString() {
        #expect(kinds(#""""#) == [.string([.text("")])])
    }

    @Test func interpolationPartsKeepTheirSourceAndLocation() {
        #expect(
            kinds(#""v = \(a + 1)!""#) == [
                .string([.text("v = "), .interpolation(source: "a + 1", at: at(1, 8)), .text("!")])
            ])
    }

    @Test func interpolationAloneHasNoEmptyTextParts() {
        #expect(
            kinds(#"x = "\(y)""#) == [
                .identifier("x"), .punct("="), .string([.interpolation(source: "y", at: at(1, 8))]),
            ])
    }

    @Test func interpolationMayHoldParenthesesAndStringsWithParentheses() {
        #expect(
            kinds(#""<\(f("x)", (1)))>""#) == [
                .string([.text("<"), .interpolation(source: #"f("x)", (1))"#, at: at(1, 5)), .text(">")])
            ])
    }

    @Test func twoInterpolations() {
        #expect(
            kinds(#""\(a) and \(b)""#) == [
                .string([
                    .interpolation(source: "a", at: at(1, 4)), .text(" and "),
                    .interpolation(source: "b", at: at(1, 13)),
                ])
            ])
    }

    // MARK: Dots

    @Test func dotLiteralsInAnArray() {
        #expect(
            kinds("[.new, .old, .initial, .prior]") == [
                .punct("["), .dotName("new"), .punct(","), .dotName("old"), .punct(","), .dotName("initial"),
                .punct(","),
                .dotName("prior"), .punct("]"),
            ])
    }

    @Test func dotLiteralsAfterLabelsAndOperators() {
        #expect(
            kinds("willChange(.removal, x == .set)") == [
                .identifier("willChange"), .punct("("), .dotName("removal"), .punct(","), .identifier("x"),
                .punct("=="),
                .dotName("set"), .punct(")"),
            ])
        #expect(kinds("options: .prior") == [.identifier("options"), .punct(":"), .dotName("prior")])
    }

    @Test func memberDotsAfterExpressions() {
        #expect(kinds("a.b") == [.identifier("a"), .punct("."), .identifier("b")])
        #expect(kinds("f().count") == [.identifier("f"), .punct("("), .punct(")"), .punct("."), .identifier("count")])
        #expect(
            kinds("xs[0].name") == [
                .identifier("xs"), .punct("["), .integer(0), .punct("]"), .punct("."), .identifier("name"),
            ])
        #expect(kinds("self.balance") == [.keyword(.self), .punct("."), .identifier("balance")])
        #expect(kinds(#""abc".count"#) == [.string([.text("abc")]), .punct("."), .identifier("count")])
    }

    @Test func keyPathLiteralIsABackslashThenADotName() {
        #expect(kinds(#"\.name"#) == [.punct("\\"), .dotName("name")])
    }

    @Test func dotNameTokenCoversTheDot() {
        let (tokens, _) = Lexer.tokenize("x = .new")
        #expect(tokens[2].location == at(1, 5))
        #expect(tokens[2].length == 4)
    }

    // MARK: Keywords, attributes, punctuation

    @Test func keywordsAttributesAndContextualContext() {
        #expect(
            kinds("class static release context @manual @affectedBy") == [
                .keyword(.class), .keyword(.static), .keyword(.release), .identifier("context"), .attribute("manual"),
                .attribute("affectedBy"),
            ])
    }

    @Test func longestPunctuationWins() {
        #expect(
            kinds("a <= b && c != d || e += 1") == [
                .identifier("a"), .punct("<="), .identifier("b"), .punct("&&"), .identifier("c"), .punct("!="),
                .identifier("d"), .punct("||"), .identifier("e"), .punct("+="), .integer(1),
            ])
    }

    // MARK: Comments, newlines, #!

    @Test func lineAndNestedBlockComments() {
        #expect(
            kinds("a // a comment\n/* outer /* inner */ still a comment */ b") == [
                .identifier("a"), .newline, .identifier("b"),
            ])
    }

    @Test func blockCommentsSpanLinesWithoutNewlineTokens() {
        let (tokens, diagnostics) = Lexer.tokenize("/* one\n two\n */ x")
        #expect(diagnostics.isEmpty)
        #expect(tokens.map(\.kind) == [.identifier("x"), .eof])
        #expect(tokens[0].location == at(3, 5))
    }

    @Test func unterminatedNestedBlockComment() {
        #expect(errors("x /* a /* b */ c") == ["1:3: unterminated '/*' comment; close it with '*/'"])
    }

    @Test func statementsAreSeparatedByNewlinesAndSemicolons() {
        #expect(kinds("a\nb; c") == [.identifier("a"), .newline, .identifier("b"), .punct(";"), .identifier("c")])
    }

    @Test func aHashBangFirstLineIsIgnored() {
        let (tokens, diagnostics) = Lexer.tokenize("#!/usr/bin/env kvo-run\nprint(1)")
        #expect(diagnostics.isEmpty)
        #expect(tokens.map(\.kind) == [.newline, .identifier("print"), .punct("("), .integer(1), .punct(")"), .eof])
        #expect(tokens[1].location == at(2, 1))
    }

    @Test func aHashBangElsewhereIsAnError() {
        #expect(errors("print(1)\n#!/bin/sh") == ["2:1: unexpected character '#' in the scenario"])
    }

    // MARK: Errors with line:column

    @Test func unterminatedString() {
        #expect(errors(#"let s = "abc"#) == [#"1:9: unterminated string literal; close it with '"' on the same line"#])
    }

    @Test func aStringEndsAtTheEndOfItsLine() {
        #expect(
            errors("let s = \"abc\nlet t = 1") == [
                #"1:9: unterminated string literal; close it with '"' on the same line"#
            ])
    }

    @Test func leadingDotNumber() {
        #expect(errors("let x = .5") == ["1:9: '.5' is not a number; write '0.5'"])
    }

    /// The message should quote the literal as written, not always '.5'.
    @Test func leadingDotNumberQuotesTheLiteral() {
        #expect(errors("print(.25)") == ["1:7: '.25' is not a number; write '0.25'"])
    }

    @Test func overflowingIntegerLiteral() {
        #expect(
            errors("let n = 99999999999999999999") == [
                "1:9: integer literal '99999999999999999999' overflows Int (maximum 9223372036854775807)"
            ])
        #expect(
            errors("let n = 9223372036854775808") == [
                "1:9: integer literal '9223372036854775808' overflows Int (maximum 9223372036854775807)"
            ])
    }

    @Test func tooLargeDoubleLiteral() {
        #expect(errors("let d = 1e999") == ["1:9: number literal '1e999' is too large"])
    }

    @Test func badCharacters() {
        #expect(errors("let x = 1 $ 2") == ["1:11: unexpected character '$' in the scenario"])
        #expect(errors("let é = 1") == ["1:5: unexpected character U+E9 in the scenario"])
    }

    @Test func invalidEscape() {
        #expect(errors(#"print("a\qb")"#) == [#"1:9: invalid escape sequence '\q' in string literal"#])
    }

    @Test func errorsOnSeveralLinesEachHaveTheirOwnPosition() {
        #expect(
            errors("let a = 1\n  let b = .5\nlet c = 1 ` 2\n\tlet d = \"open") == [
                "2:11: '.5' is not a number; write '0.5'",
                "3:11: unexpected character '`' in the scenario",
                #"4:10: unterminated string literal; close it with '"' on the same line"#,
            ])
    }
}
