import Testing
@testable import KVOCore

/// SPEC §3, rule 5 of issue 27: inside a collection, a change dictionary or
/// a dump, a string or number description is bare only when it is non-empty
/// and made of ASCII letters and digits alone; else it is quoted as NSArray's
/// description (old-style property lists) quotes it.
@Suite struct DescriptionQuotingTests {
    @Test func theSpecsExampleCollection() {
        let value = Value.array([
            .string("com.example"), .string("first_name"), .string("plain"), .double(2.5), .int(6),
        ])
        #expect(value.collectionDescription == "(\"com.example\", \"first_name\", plain, \"2.5\", 6)")
        #expect(Value.array([.int(6), .double(2.5), .int(-1)]).collectionDescription == "(6, \"2.5\", \"-1\")")
    }

    @Test(
        arguments: [
            ("Savings", "Savings"), ("abc123XYZ", "abc123XYZ"), ("", "\"\""), ("a_b", "\"a_b\""), ("a.b", "\"a.b\""),
            ("a$b", "\"a$b\""), ("two words", "\"two words\""), ("-1", "\"-1\""),
        ] as [(String, String)])
    func onlyASCIILettersAndDigitsStayBare(text: String, described: String) {
        #expect(Value.string(text).collectionDescription == described)
        // Top-level print of a string stays bare.
        #expect(Value.string(text).printDescription == text)
    }

    /// Escapes inside the quotes, as old-style property lists write them:
    /// `\"` and `\\`, the C escapes for control characters that have one,
    /// three octal digits for the other ASCII controls, and `\U` with four
    /// lowercase hex digits per UTF-16 unit past ASCII.
    @Test(
        arguments: [
            ("say \"hi\"", #""say \"hi\"""#), ("a\\b", #""a\\b""#), ("line\nnext", #""line\nnext""#),
            ("tab\there", #""tab\there""#), ("cr\r", #""cr\r""#), ("\u{07}\u{08}\u{0B}\u{0C}", #""\a\b\v\f""#),
            ("\0", #""\000""#), ("\u{1B}[0m", #""\033[0m""#), ("\u{7F}", #""\177""#),
            ("é", #""\U00e9""#), ("中文", #""\U4e2d\U6587""#), ("🙂", #""\Ud83d\Ude42""#),
            ("\u{202E}x", #""\U202ex""#), ("\u{80}", #""\U0080""#),
        ] as [(String, String)])
    func escapesAreThoseOfOldStylePropertyLists(text: String, described: String) {
        #expect(Value.quoteIfNeeded(text) == described)
        #expect(Value.array([.string(text)]).collectionDescription == "(" + described + ")")
    }

    @Test func changeDictionariesAndSetsQuoteTheSameWay() {
        let change = Change(kind: .setting, new: .string("first_name"), old: .string("plain"))
        #expect(change.description == "{kind = 1; new = \"first_name\"; old = plain}")
        let set = Value.set(ValueSet([.double(2.5), .int(3), .int(-1)]))
        // Sorted by the descriptions shown.
        #expect(set.collectionDescription == "{(\"-1\", \"2.5\", 3)}")
    }
}
