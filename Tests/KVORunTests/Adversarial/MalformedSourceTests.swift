import _KVOTestSupport
import Foundation
import Testing

/// Scenarios cut short, binary garbage, invalid UTF-8, NUL bytes and unterminated strings and comments: each checks
/// or fails cleanly.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct MalformedSourceTests {
    typealias A = Adversarial

    // MARK: Truncated scenarios

    /// Every conformance case cut at a dozen byte offsets, including just
    /// after the first `(`, `{`, `"` and `\(`: each prefix checks or fails
    /// cleanly, with and without --keep-going.
    @Test(arguments: Adversarial.conformanceCases())
    func truncatedConformanceCase(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: A.conformanceDirectory.appendingPathComponent(name)))
        try #require(bytes.count > 20)
        let n = bytes.count
        var offsets: Set<Int> = [
            1, 2, 5, 10, 17, n / 8, n / 4, n / 3, n / 2, 2 * n / 3, 3 * n / 4, 7 * n / 8, n - 2, n - 1,
        ]
        for marker in ["(", "{", "\"", "\\(", "/*", "[", "."] {
            let pattern = Array(marker.utf8)
            if let start = (0...(n - pattern.count)).first(where: { Array(bytes[$0..<$0 + pattern.count]) == pattern })
            {
                offsets.insert(start + pattern.count)
            }
        }
        for offset in offsets.sorted() where offset > 0 && offset < n {
            let prefix = Array(bytes[..<offset])
            try A.check(bytes: prefix, .anyStatus, "\(name) cut at byte \(offset)")
            if offset % 2 == 0 {
                try A.check(
                    bytes: prefix, .anyStatus, arguments: ["--keep-going", "--max-steps", "100000"],
                    "\(name) cut at byte \(offset), --keep-going")
            }
        }
    }

    // MARK: Binary garbage, invalid UTF-8, NUL bytes

    @Test(arguments: 1...8)
    func pseudoRandomBytes(_ seed: Int) throws {
        var random = A.SplitMix64(state: UInt64(seed) &* 0x1234_5678_9ABC_DEF1)
        let count = [1, 7, 64, 300, 1024, 4096, 16_384, 65_536][seed - 1]
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try A.check(bytes: bytes, .anyStatus, "seed \(seed)")
    }

    /// Random sequences of the language's own tokens: far more of them reach
    /// the checker and the interpreter than random bytes do.
    @Test(arguments: 1...6)
    func pseudoRandomTokenSoup(_ seed: Int) throws {
        let tokens = [
            "class ", "A", "B", " {", "}", "(", ")", "[", "]", "\"", "\\(", "var ", "let ", "x", "y", " = ",
            "\n", ".", "/*", "*/", "//", "func ", "f", "if ", "else ", "for ", " in ", "while ", "do ",
            "catch ", "return ", "release(", "@affectedBy(", "@manual ", ".addObserver(", "forKeyPath: ",
            "\"x\"", "0", "1", "1e", ":", ", ", ";", " + ", " - ", " * ", " / ", " % ", "..<", "...", "\\.",
            "?", "!", " && ", " == ", "self", "super", "nil", "true", ".setValue(", ".value(forKeyPath: ",
            ".mutableArrayValue(forKey: ", "observeValue(keyPath, object, change, context)", "Int", "[Int]",
            "Set<Int>", "Any", "context ", "print(", "options: [.new, .old, .prior, .initial]", "static ",
        ]
        var random = A.SplitMix64(state: UInt64(seed) &* 0x9E37_79B9)
        for round in 0..<25 {
            let count = 1 + random.below(200)
            let source = (0..<count).map { _ in tokens[random.below(tokens.count)] }.joined()
            try A.check(
                source, .anyStatus, arguments: ["--keep-going", "--max-steps", "20000"], "seed \(seed) round \(round)")
        }
    }

    @Test(arguments: [
        ("lone 0xFF", [0xFF] as [UInt8]),
        ("lone continuation byte", [0x80]),
        ("overlong NUL", [0xC0, 0x80]),
        ("UTF-16 surrogate", [0xED, 0xA0, 0x80]),
        ("truncated 4-byte sequence", [0xF0, 0x9F, 0x98]),
        ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("0xFE 0xFF", [0xFE, 0xFF]),
        ("byte-order mark", [0xEF, 0xBB, 0xBF]),
    ])
    func invalidUTF8(_ name: String, _ sequence: [UInt8]) throws {
        let places: [(String, String)] = [
            ("", "print(1)\n"),  // at the very start
            ("let x", " = 1\nprint(x)\n"),  // inside an identifier
            ("print(\"a", "b\")\n"),  // inside a string
            ("// c", "\nprint(1)\n"),  // inside a comment
            ("/* c", " */\nprint(1)\n"),  // inside a block comment
            ("print(\"\\(1", ")\")\n"),  // inside an interpolation
            ("class A { var ", "x: Int = 0 }\n"),  // in a declaration
            ("print(1)\n", ""),  // at the very end
        ]
        for (before, after) in places {
            try A.check(
                bytes: Array(before.utf8) + sequence + Array(after.utf8), .anyStatus, "\(name) in «\(before)…\(after)»")
        }
        // Not thousands on one line: see hundredThousandInvalidCharactersOnOneLine.
        try A.check(bytes: Array(repeating: sequence, count: 200).flatMap { $0 }, .anyStatus, "\(name) × 200")
        try A.check(
            bytes: Array(repeating: sequence + [UInt8(ascii: "\n")], count: 5000).flatMap { $0 }, .anyStatus,
            "\(name) on 5000 lines")
    }

    @Test func nulBytes() throws {
        let nul: [UInt8] = [0]
        for (before, after) in [
            ("", "print(1)\n"), ("print(\"a", "b\")\n"), ("// a", "b\nprint(1)\n"),
            ("/* a", "b */\nprint(1)\n"), ("print(1)", "\nprint(2)\n"), ("let x", "y = 1\n"),
            ("print(1)\n", ""),
        ] {
            try A.check(bytes: Array(before.utf8) + nul + Array(after.utf8), .anyStatus, "NUL in «\(before)…\(after)»")
        }
        let result = try A.check(
            bytes: Array("print(\"a".utf8) + nul + Array("b\".count)\n".utf8), .anyStatus, "NUL in a counted string")
        if result.status == 0 { #expect(result.out == "3\n", "\(result)") }
    }

    /// One diagnostic per invalid character, each echoing its whole line,
    /// makes stderr quadratic in the line's length: 100,000 NULs on one line
    /// wrote over 12 GB before being killed. Errors on a line should be
    /// coalesced or capped.
    @Test(arguments: [
        ("NUL", [0] as [UInt8]), ("0xFF", [0xFF]), ("'@'", [UInt8(ascii: "@")]), ("'$'", [UInt8(ascii: "$")]),
    ])
    func hundredThousandInvalidCharactersOnOneLine(_ name: String, _ byte: [UInt8]) throws {
        let result = try A.check(bytes: Array(repeating: byte[0], count: 100_000), .scriptError, "100,000 × \(name)")
        #expect(result.err.utf8.count < 10 << 20, "stderr is \(result.err.utf8.count) bytes or more")
    }

    // MARK: Unterminated strings and comments

    @Test(arguments: [
        "print(\"abc\n",
        "print(\"abc",
        "let s = \"\n\"\n",
        "print(\"\\(1\n",
        "print(\"\\(\"inner)\n",
        "print(\"\\(\"inner\")\n",
        "print(\"\\(\"\\(\"\\(\n",
        "print(\"abc\\",
        "print(\"\\u{\n",
        "print(\"\\u{41\")\n",
        "print(\"\\u{110000}\")\n",
        "print(\"\\u{D800}\")\n",
        "print(\"\\u{FFFFFFFFFFFFFFFFFFFFFFFF}\")\n",
        "print(\"\\q\")\n",
        "/* never closed\nprint(1)\n",
        "/* /* nested */ still open\nprint(1)\n",
        "/*",
        "/*/",
        "print(1) /* trailing",
        "class A {\n    var x: Int = 0\n",
        "func f() {\n",
        "print(1, 2,\n",
        "print((((1\n",
        "let a = [1, 2\n",
        "if true {\n  print(1)\n} else {\n",
        "\"",
        "\\",
        "\\(",
        "#!/usr/bin/env kvo-run\n\"",
    ])
    func unterminated(_ source: String) throws {
        try A.check(source, .scriptError)
    }

    /// docs/language.md#lexical: a first line starting with `#!` is ignored, even unterminated.
    @Test(arguments: [
        "#!", "#!/usr/bin/env kvo-run", "#!\"\\(/*", "#!" + String(repeating: "(", count: 100_000) + "\nprint(1)\n",
    ])
    func shebangLineIsIgnored(_ source: String) throws {
        try A.check(source, .success)
    }
}
