import _KVOTestSupport
import KVORun
import Foundation
import Testing

/// Malformed and adversarial scenarios (issue "Robustness: no input crashes
/// kvo-run"; docs/language.md#diagnostics: "Nothing a script does, however malformed or deep,
/// crashes the program or overflows its stack: limits are checked, not hoped
/// for"). Every case runs the real `kvo-run` (found by `CLI` in
/// KVORunTests.swift) in its own process with a timeout, and checks that it
/// ends by itself, not by a signal, with status 0, 1 or 2 as expected, and
/// that errors name `FILE:LINE:COL: error:` with a line inside the file.
enum Adversarial {
    /// Per-run limit; a run that takes longer fails the test (a hang).
    static let timeout: TimeInterval = 20
    /// For the few inputs that are large on purpose (1 MB, 100,000 statements).
    static let largeInputTimeout: TimeInterval = 60

    enum Expected: CustomStringConvertible {
        /// Status 0.
        case success
        /// Status 2: the script does not check; nothing runs.
        case scriptError
        /// Status 1 from a runtime error (a diagnostic on stderr).
        case runtimeError
        /// Status 1 from an uncaught Cocoa exception (the Terminating line).
        case exception
        /// Status 1 or 2, whichever (a diagnostic or an exception).
        case failure
        /// Any of 0, 1, 2 (garbage whose meaning does not matter): only "no crash".
        case anyStatus

        var statuses: Set<Int32> {
            switch self {
            case .success: [0]
            case .scriptError: [2]
            case .runtimeError, .exception: [1]
            case .failure: [1, 2]
            case .anyStatus: [0, 1, 2]
            }
        }

        var description: String {
            switch self {
            case .success: "status 0"
            case .scriptError: "status 2 (script errors)"
            case .runtimeError: "status 1 (runtime error)"
            case .exception: "status 1 (uncaught exception)"
            case .failure: "status 1 or 2"
            case .anyStatus: "status 0, 1 or 2"
            }
        }
    }

    /// Output beyond this fails the run: a scenario of a few MB must not
    /// flood the disk (each file is checked while the child runs).
    static let outputLimit = 256 << 20
    /// How much of stdout and stderr is read back for the checks.
    static let readLimit = 32 << 20

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `bytes` as FILE in a fresh folder and runs `kvo-run ARGS FILE`.
    ///
    /// Not `CLI.run`: its timeout sends SIGTERM, which the child inherits
    /// blocked from the test runner's threads, so a hung kvo-run is never
    /// stopped and the test waits forever. This one kills with SIGKILL, stops a
    /// run whose output passes `outputLimit`, and reads back at most
    /// `readLimit` bytes of each stream.
    static func run(
        _ bytes: [UInt8], file: String = "adv.kvo", arguments: [String] = [],
        timeout: TimeInterval = timeout, memoryLimitKB: Int? = nil
    ) throws -> CLI.Result {
        guard let binary = CLI.binary else { throw Failure(description: "kvo-run not found (see CLI.binary)") }
        let folder = try Folder()
        try Data(bytes).write(to: folder.url.appendingPathComponent(file))
        let outURL = folder.url.appendingPathComponent(".stdout")
        let errURL = folder.url.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        let process = Process()
        if let memoryLimitKB {
            // Through the shell, for its `ulimit -v`: the child may then fail to
            // allocate, but never takes the machine's memory.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -v \(memoryLimitKB) && exec \"$0\" \"$@\"", binary.path] + arguments + [file]
        } else {
            process.executableURL = binary
            process.arguments = arguments + [file]
        }
        process.currentDirectoryURL = folder.url
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["KVO_HISTORY"] = ""
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var problem: String?
        while process.isRunning {
            if Date() > deadline {
                problem = "did not finish in \(Int(timeout)) s"
            } else if size(of: outURL) > outputLimit || size(of: errURL) > outputLimit {
                problem =
                    "wrote more than \(outputLimit >> 20) MB (stdout \(size(of: outURL)) bytes, stderr \(size(of: errURL)) bytes)"
            }
            if problem != nil {
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let out = read(outURL), err = read(errURL)
        if let problem {
            throw Failure(
                description:
                    "kvo-run \((arguments + [file]).joined(separator: " ")) \(problem) on a \(bytes.count)-byte input \(preview(bytes))\n--- stdout\n\(out.prefix(2000))\n--- stderr\n\(err.prefix(2000))"
            )
        }
        // Through the shell, a signal shows as status 128 + N; under `make
        // test-asan`, AddressSanitizer reports a crash and exits with status 1.
        let signalled =
            process.terminationReason == .uncaughtSignal || (memoryLimitKB != nil && process.terminationStatus > 128)
            || err.contains("ERROR: AddressSanitizer")
        return CLI.Result(status: process.terminationStatus, crashed: signalled, out: out, err: err)
    }

    static func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    static func read(_ url: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: readLimit)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `source` and checks the outcome against `expected`; returns the
    /// result for further checks. `message`, when given, must appear in the
    /// error (stderr) or the exception (stdout).
    @discardableResult
    static func check(
        _ source: String, _ expected: Expected, message: String? = nil,
        arguments: [String] = [], timeout: TimeInterval = timeout, memoryLimitKB: Int? = nil,
        _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLI.Result {
        try check(
            bytes: Array(source.utf8), expected, message: message, arguments: arguments,
            timeout: timeout, memoryLimitKB: memoryLimitKB, label, sourceLocation: sourceLocation)
    }

    /// AddressSanitizer reserves terabytes of shadow memory, so `ulimit -v`
    /// cannot be used under `make test-asan` (which sets ASAN_OPTIONS).
    static var underAddressSanitizer: Bool { ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil }

    @discardableResult
    static func check(
        bytes: [UInt8], _ expected: Expected, message: String? = nil,
        arguments: [String] = [], timeout: TimeInterval = timeout, memoryLimitKB: Int? = nil,
        _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLI.Result {
        let file = "adv.kvo"
        let result = try run(bytes, file: file, arguments: arguments, timeout: timeout, memoryLimitKB: memoryLimitKB)
        let context =
            "\(label.isEmpty ? "" : label + ": ")expected \(expected), \(bytes.count)-byte input \(preview(bytes))\n\(result)"
        #expect(!result.crashed, "killed by signal \(result.status): \(context)", sourceLocation: sourceLocation)
        guard !result.crashed else { return result }
        #expect(expected.statuses.contains(result.status), "\(context)", sourceLocation: sourceLocation)
        let lineCount = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let diagnostics = errorLocations(in: result.err, file: file)
        // With --keep-going the run goes on: the same line without "Terminating app".
        let terminated =
            result.out.contains("*** Terminating app due to uncaught exception '")
            || result.out.contains("*** Statement stopped by uncaught exception '")
        switch result.status {
        case 2:
            #expect(
                !diagnostics.isEmpty, "status 2 without '\(file):LINE:COL: error:' on stderr: \(context)",
                sourceLocation: sourceLocation)
        case 1:
            if expected == .runtimeError || (expected != .exception && !terminated) {
                #expect(
                    !diagnostics.isEmpty, "status 1 without '\(file):LINE:COL: error:' on stderr: \(context)",
                    sourceLocation: sourceLocation)
            }
            if expected == .exception {
                #expect(terminated, "no 'Terminating app' line: \(context)", sourceLocation: sourceLocation)
            }
        default:
            break
        }
        for (line, column) in diagnostics {
            #expect(
                line >= 1 && line <= lineCount && column >= 1,
                "diagnostic at \(line):\(column) outside a \(lineCount)-line file: \(context)",
                sourceLocation: sourceLocation)
        }
        if let message {
            #expect(
                result.err.contains(message) || result.out.contains(message),
                "'\(message)' not reported: \(context)", sourceLocation: sourceLocation)
        }
        return result
    }

    /// (line, column) of every `FILE:LINE:COL: error:` line on stderr.
    static func errorLocations(in err: String, file: String) -> [(Int, Int)] {
        err.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(file + ":") else { return nil }
            let fields = line.dropFirst(file.count + 1).split(
                separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let row = Int(fields[0]), let column = Int(fields[1]),
                fields[2].hasPrefix(" error: ")
            else { return nil }
            return (row, column)
        }
    }

    static func preview(_ bytes: [UInt8]) -> String {
        let head = String(decoding: bytes.prefix(160), as: UTF8.self)
        return "«" + head.replacingOccurrences(of: "\n", with: "⏎") + (bytes.count > 160 ? "…»" : "»")
    }

    /// Deterministic pseudo-random bytes (SplitMix64), so failures reproduce.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static var conformanceDirectory: URL { CLI.packageRoot.appendingPathComponent("Tests/Conformance") }

    static func conformanceCases() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: conformanceDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".kvo") }.sorted()
    }

    static var regressionsDirectory: URL { CLI.packageRoot.appendingPathComponent("Fuzz/regressions") }

    static let depthExceeded = "nested deeper than the maximum depth"
    static let nestingLimit = "nesting deeper than 256 levels"
}

@Suite(.serialized) struct AdversarialTests {
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

    // MARK: 10,000-deep nesting

    @Test(arguments: [
        (
            "parentheses",
            "let x = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
                + "\nprint(x)\n"
        ),
        (
            "brackets",
            "let x = " + String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000)
                + "\nprint(x)\n"
        ),
        ("braces", String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000) + "\n"),
        (
            "if blocks",
            String(repeating: "if true {\n", count: 10_000) + "print(1)\n" + String(repeating: "}\n", count: 10_000)
        ),
        ("while blocks", String(repeating: "while false {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("for blocks", String(repeating: "for i in [1] {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("do blocks", String(repeating: "do {\n", count: 10_000) + String(repeating: "} catch { }\n", count: 10_000)),
        ("functions", String(repeating: "func f() {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        // A flat else-if chain or operator chain is not nesting (issue 15):
        // HostileIOTests.longChainsCompileAndRunWithoutRecursion runs them.
        (
            "interpolations",
            "print(" + String(repeating: "\"\\(", count: 10_000) + "1" + String(repeating: ")\"", count: 10_000) + ")\n"
        ),
        ("unterminated interpolations", "print(" + String(repeating: "\"\\(", count: 10_000) + "\n"),
        ("unary minus", "print(" + String(repeating: "-", count: 10_000) + "1)\n"),
        ("logical not", "print(" + String(repeating: "!", count: 10_000) + "true)\n"),
        ("calls", String(repeating: "print(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + "\n"),
        (
            "subscripts",
            "let a = [1]\nprint(a" + String(repeating: "[0", count: 10_000) + String(repeating: "]", count: 10_000)
                + ")\n"
        ),
        (
            "array literal in argument",
            "print(" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + ")\n"
        ),
        ("member chain", "let x = 1" + String(repeating: ".a", count: 10_000) + "\n"),
        ("class bodies", String(repeating: "class A {\n", count: 10_000) + String(repeating: "}\n", count: 10_000)),
        ("setter blocks", "class A {\n" + String(repeating: "var x: Int = 0 { set {\n", count: 10_000) + "\n}\n"),
    ])
    func tenThousandDeep(_ name: String, _ source: String) throws {
        try A.check(source, .failure, name)
        try A.check(source, .scriptError, arguments: ["check"], name + " (kvo-run check)")
    }

    /// Nested block comments are not parser nesting: 10,000 of them are fine.
    @Test func tenThousandNestedComments() throws {
        let result = try A.check(
            String(repeating: "/*", count: 10_000) + String(repeating: "*/", count: 10_000) + "\nprint(1)\n", .success)
        #expect(result.out == "1\n")
    }

    // MARK: Recursion at run time (checked by --max-depth)

    static let recursions: [(String, String)] = [
        (
            "notification recursion",
            """
            class Counter {
                var value: Int = 0
                func observeValue(keyPath, object, change, context) {
                    value = value + 1
                }
            }
            let c = Counter()
            c.addObserver(c, forKeyPath: "value", options: [.new, .old, .prior])
            c.value = 1
            print("not reached")

            """
        ),
        (
            "method recursion",
            """
            class A {
                func f(n) { return f(n + 1) }
            }
            let a = A()
            print(a.f(0))

            """
        ),
        ("function recursion", "func f(n) { return f(n + 1) + 1 }\nprint(f(0))\n"),
        (
            "mutual recursion between two objects' handlers",
            """
            class Node {
                var value: Int = 0
                var other: Node?
                func observeValue(keyPath, object, change, context) {
                    other.value = other.value + 1
                }
            }
            let a = Node()
            let b = Node()
            a.other = b
            b.other = a
            a.addObserver(b, forKeyPath: "value", options: [.new])
            b.addObserver(a, forKeyPath: "value", options: [.new])
            a.value = 1
            print("not reached")

            """
        ),
        (
            "mutual recursion between two methods",
            """
            class A { var b: B?
                func ping(n) { return b.pong(n + 1) } }
            class B { var a: A?
                func pong(n) { return a.ping(n + 1) } }
            let a = A()
            let b = B()
            a.b = b
            b.a = a
            print(a.ping(0))

            """
        ),
        ("computed property reading itself", "class A { var z: Int { z + 1 } }\nlet a = A()\nprint(a.z)\n"),
        // Found by the fuzzer: it overflowed the stack (SIGSEGV) before the
        // initial values of a new object counted as a level.
        (
            "initial value creating its own class",
            "class Account {\n    var next = Account()\n}\nlet a = Account()\nprint(\"not reached\")\n"
        ),
        ("computed property through KVC", "class A { var z: Int { value(forKey: \"z\") } }\nlet a = A()\nprint(a.z)\n"),
        (
            "valueForUndefinedKey recursion",
            """
            class A { func valueForUndefinedKey(key) { return value(forKey: key) } }
            let a = A()
            print(a.value(forKey: "nope"))

            """
        ),
        (
            "setValueForUndefinedKey recursion",
            """
            class A { func setValueForUndefinedKey(value, key) { setValue(value, forKey: key) } }
            let a = A()
            a.setValue(1, forKey: "nope")

            """
        ),
        (
            "setNilValueForKey recursion",
            """
            class A { var x: Int = 0
                func setNilValueForKey(key) { setValue(nil, forKey: key) } }
            let a = A()
            a.setValue(nil, forKey: "x")

            """
        ),
        (
            "custom setter recursion",
            """
            class A {
                var x: Int = 0 { set { x = newValue + 1 } }
            }
            let a = A()
            a.x = 1

            """
        ),
        (
            "handler recursion through a key path with a cycle",
            """
            class Node {
                var x: Int = 0
                var next: Node?
                func observeValue(keyPath, object, change, context) {
                    setValue(x + 1, forKeyPath: "next.x")
                }
            }
            let n = Node()
            n.next = n
            n.addObserver(n, forKeyPath: "next.x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
        (
            "handler recursion through a dependent key",
            """
            class Node {
                var x: Int = 0
                @affectedBy(x)
                var y: Int { x + 1 }
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "y" { x = x + 1 }
                }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "y", options: [.new, .old, .prior])
            n.addObserver(n, forKeyPath: "x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
        (
            "handler calling a method whose computed property notifies",
            """
            class Node {
                var x: Int = 0
                var y: Int { bump() }
                func bump() {
                    x = x + 1
                    return x
                }
                func observeValue(keyPath, object, change, context) { print(y) }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "x", options: [.new, .old, .prior])
            n.x = 1

            """
        ),
    ]

    @Test(arguments: recursions)
    func recursionStopsAtTheDefaultDepth(_ name: String, _ source: String) throws {
        try A.check(source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet"], name)
    }

    /// --max-depth accepts up to 100000: the deepest allowed recursion must
    /// still end with the depth error, not overflow the interpreter's stack.
    @Test(arguments: recursions)
    func recursionStopsAtTheLargestAllowedDepth(_ name: String, _ source: String) throws {
        try A.check(
            source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet", "--max-depth", "100000"],
            timeout: A.largeInputTimeout, name)
    }

    /// Each level of the recursion evaluates a 250-deep expression or block (the
    /// parser allows 256): stack use per level is far larger than for a plain
    /// call, and the depth limit must still be reached before the stack runs out.
    @Test(arguments: [
        (
            "method whose return nests 250 unary minuses",
            "func f(n) { return " + String(repeating: "-", count: 250) + "f(n + 1) }\nprint(f(0))\n"
        ),
        (
            "method whose call sits in 120 nested ifs",
            "func f(n) {\n" + String(repeating: "if true {\n", count: 120) + "return f(n + 1)\n"
                + String(repeating: "}\n", count: 120) + "}\nprint(f(0))\n"
        ),
        (
            "handler whose set sits in 120 nested ifs",
            """
            class Node {
                var x: Int = 0
                func observeValue(keyPath, object, change, context) {
            \(String(repeating: "if true {\n", count: 120))x = x + 1
            \(String(repeating: "}\n", count: 120))    }
            }
            let n = Node()
            n.addObserver(n, forKeyPath: "x")
            n.x = 1

            """
        ),
    ])
    func recursionThroughDeepBodies(_ name: String, _ source: String) throws {
        try A.check(source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet"], name)
        try A.check(
            source, .runtimeError, message: A.depthExceeded, arguments: ["--quiet", "--max-depth", "100000"],
            timeout: A.largeInputTimeout, name + ", --max-depth 100000")
    }

    // MARK: Cycles

    @Test func observedKeyPathThroughAnObjectCycle() throws {
        let path = String(repeating: "next.", count: 8) + "value"
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var value: Int = 0
            }
            class Watcher { }
            let a = Node()
            let b = Node()
            a.next = b
            b.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "\(path)", options: [.new, .old, .prior])
            b.value = 5
            a.value = 6
            a.next = a
            b.next = b
            print(a.value(forKeyPath: "\(path)"))
            a.removeObserver(w, forKeyPath: "\(path)")
            a.value = 7
            print("done")

            """, .success)
        #expect(result.out.hasSuffix("6\ndone\n"), "\(result)")
    }

    /// A long key path around a one-object cycle: registration must not cost
    /// time or memory quadratic in the path's length (each forwarding level
    /// should not copy the rest of the path).
    @Test func longObservedKeyPathAroundACycle() throws {
        let path = String(repeating: "next.", count: 20_000) + "value"
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var value: Int = 0
            }
            class Watcher { }
            let a = Node()
            a.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "\(path)", options: [.new, .old])
            a.value = 1
            a.removeObserver(w, forKeyPath: "\(path)")
            print("done")

            """, .success, arguments: ["--quiet"])
        #expect(result.out == "done\n", "\(result)")
    }

    @Test func affectingKeyPathsWithCycles() throws {
        let result = try A.check(
            """
            class Node {
                var next: Node?
                var x: Int = 0
                @affectedBy(x, y, next.z)
                var z: Int { x + 1 }
                @affectedBy(z, next.y, next.next.z)
                var y: Int { x + 2 }
            }
            class Loop {
                var me: Loop?
                @affectedBy(me.total, me.me.total, total)
                var total: Int { 1 }
            }
            class Watcher { }
            let a = Node()
            let b = Node()
            a.next = b
            b.next = a
            let w = Watcher()
            a.addObserver(w, forKeyPath: "z", options: [.new, .old, .prior])
            a.addObserver(w, forKeyPath: "y", options: [.new, .old])
            b.addObserver(w, forKeyPath: "next.z", options: [.new])
            a.x = 1
            b.x = 2
            a.next = a
            b.next = nil
            let s = Loop()
            s.me = s
            s.addObserver(w, forKeyPath: "total", options: [.new, .old, .prior])
            s.me = s
            s.me = nil
            print("done")

            """, .success)
        #expect(result.out.hasSuffix("done\n"), "\(result)")
    }

    @Test func keyPathsForValuesAffectingReturningACycle() throws {
        try A.check(
            """
            class A {
                var x: Int = 0
                var y: Int = 0
                static func keyPathsForValuesAffecting(key) {
                    if key == "x" { return ["y"] }
                    if key == "y" { return ["x"] }
                    return []
                }
            }
            class W { }
            let a = A()
            let w = W()
            a.addObserver(w, forKeyPath: "x", options: [.new, .old])
            a.addObserver(w, forKeyPath: "y", options: [.new, .old])
            a.x = 2
            a.y = 3
            print("done")

            """, .success)
    }

    // MARK: Int overflow and division

    @Test(arguments: [
        ("big + 1", "arithmetic overflow"),
        ("small - 1", "arithmetic overflow"),
        ("big * 2", "arithmetic overflow"),
        ("big * big", "arithmetic overflow"),
        ("small * -1", "arithmetic overflow"),
        ("-small", "arithmetic overflow"),
        ("-(small)", "arithmetic overflow"),
        ("small / -1", "arithmetic overflow"),
        ("small % -1", "arithmetic overflow"),
        ("5 % 0", "division by zero"),
        ("5 / 0", "division by zero"),
        ("small / 0", "division by zero"),
        ("0 % 0", "division by zero"),
    ])
    func intOverflowAndDivisionByZero(_ expression: String, _ message: String) throws {
        let result = try A.check(
            """
            let big = 9223372036854775807
            let small = -9223372036854775807 - 1
            print("before")
            print(\(expression))
            print("not reached")

            """, .runtimeError, message: message)
        #expect(result.out == "before\n", "\(result)")
        #expect(result.err.hasPrefix("adv.kvo:4:"), "\(result)")
    }

    @Test func overflowInCompoundAssignmentAndLoops() throws {
        try A.check("var x = 9223372036854775807\nx += 1\n", .runtimeError, message: "arithmetic overflow")
        try A.check("var x = 1\nwhile true { x = x * 3 }\n", .runtimeError, message: "arithmetic overflow")
        try A.check("for i in 9223372036854775806...9223372036854775807 { print(i) }\n", .success)
        try A.check("for i in (-9223372036854775807 - 1)..<(-9223372036854775807) { print(i) }\n", .success)
        try A.check("for i in 9223372036854775807...0 { print(i) }\n", .runtimeError)
        try A.check("print([9223372036854775807, 1].value(forKeyPath: \"@sum.self\"))\n", .success)
    }

    @Test func doubleDivisionByZeroIsNotAnError() throws {
        let result = try A.check("print(5.0 / 0)\nprint(-5.0 / 0)\nprint(0.0 / 0.0)\nprint(1e308 * 10)\n", .success)
        #expect(result.out == "inf\n-inf\nnan\ninf\n", "\(result)")
    }

    @Test(arguments: [
        "print(9223372036854775808)",
        "print(-9223372036854775809)",
        "print(99999999999999999999999999999999999999)",
        "print(" + String(repeating: "9", count: 100_000) + ")",
        "print(1e99999)",
        "print(1e" + String(repeating: "9", count: 10_000) + ")",
        "print(1_000_000_000_000_000_000_000)",
        "print(0x10)",
        "print(1e)",
        "print(1.)",
        "print(.5)",
        "print(1e+)",
    ])
    func hugeAndMalformedNumberLiterals(_ line: String) throws {
        try A.check(line + "\n", .scriptError)
    }

    @Test func tinyAndLongDoubleLiterals() throws {
        let result = try A.check(
            "print(1e-400)\nprint(1." + String(repeating: "1", count: 100_000) + ")\nprint(1.7976931348623157e308)\n",
            .success)
        #expect(result.outLines.count == 3, "\(result)")
    }

    // MARK: Indexes

    @Test(arguments: [
        "[1, 2, 3][3]", "[1, 2, 3][-1]", "[1, 2, 3][9223372036854775807]", "[1, 2, 3][-9223372036854775807 - 1]",
        "[][0]", "[[1]][0][1]",
    ])
    func outOfRangeArrayIndex(_ expression: String) throws {
        try A.check("print(\(expression))\n", .runtimeError, message: "out of range")
    }

    @Test func outOfRangeArrayAssignment() throws {
        try A.check("var a = [1]\na[1] = 2\n", .runtimeError, message: "out of range")
        try A.check("var a = [1]\na[-1] = 2\n", .runtimeError, message: "out of range")
        try A.check("class T { var xs: [Int] }\nlet t = T()\nt.xs[0] = 1\n", .runtimeError, message: "out of range")
    }

    @Test(arguments: [
        "print(m[3])", "print(m[-1])", "print(m[9223372036854775807])", "print(m[-9223372036854775807 - 1])",
        "m.removeObject(at: 3)", "m.removeObject(at: -1)", "m.insert(\"X\", at: 4)", "m.insert(\"X\", at: -1)",
        "m.replaceObject(at: 3, with: \"X\")", "m.replaceObject(at: -9223372036854775807 - 1, with: \"X\")",
        "m.removeObjects(at: [0, 99])", "m.removeObjects(at: [-1])", "m.insert([\"X\", \"Y\"], at: [9, 10])",
        "m.insert([\"X\"], at: [9223372036854775807])", "m.insert([\"X\", \"Y\"], at: [0])",
        "m.removeAllObjects()\nm.removeLastObject()", "m.removeAllObjects()\nprint(m[0])",
    ])
    func outOfRangeProxyIndex(_ statement: String) throws {
        let result = try A.check(
            """
            class Team { var members: [String] }
            class W { }
            let team = Team(members: ["Ann", "Bob", "Cy"])
            let w = W()
            team.addObserver(w, forKeyPath: "members", options: [.new, .old, .prior])
            let m = team.mutableArrayValue(forKey: "members")
            \(statement)
            print("not reached")

            """, .exception)
        #expect(
            result.out.contains("'NSRangeException'") || result.out.contains("'NSInvalidArgumentException'"),
            "\(result)")
        #expect(!result.out.contains("not reached"))
    }

    /// `willChange(_:valuesAt:forKey:)` takes an NSIndexSet, whose indexes are
    /// unsigned: a negative index cannot be described as `indexes = (-5)`, and
    /// with `.old` Apple reads the old values with `objectsAtIndexes:`, which
    /// raises NSRangeException for an index beyond the array.
    @Test(arguments: [
        "team.willChange(.removal, valuesAt: [-5], forKey: \"members\")\nteam.didChange(.removal, valuesAt: [-5], forKey: \"members\")",
        "team.willChange(.removal, valuesAt: [99], forKey: \"members\")\nteam.didChange(.removal, valuesAt: [99], forKey: \"members\")",
        "team.willChange(.replacement, valuesAt: [9223372036854775807], forKey: \"members\")\nteam.didChange(.replacement, valuesAt: [9223372036854775807], forKey: \"members\")",
    ])
    func manualToManyChangeWithAnOutOfRangeIndex(_ statements: String) throws {
        let result = try A.check(
            """
            class Team { var members: [String] }
            class W { }
            let team = Team(members: ["Ann", "Bob", "Cy"])
            let w = W()
            team.addObserver(w, forKeyPath: "members", options: [.new, .old])
            \(statements)
            print("not reached")

            """, .failure)
        #expect(!result.out.contains("<null>"), "old values invented for indexes the array does not have: \(result)")
    }

    // MARK: Unknown members on dynamic values

    @Test(arguments: [
        "print(x.foo)", "print(x.count.foo)", "print(d[0].foo())", "print(d.append(1, 2))", "print(\"s\".foo)",
        "do { [1].foo } catch { print(error.foo) }", "print(a.x.y.z)", "a.x.y = 2", "print(a.observationInfo.foo)",
        "print(a.mutableArrayValue(forKey: \"arr\").foo)", "print(a.value(forKey: \"x\").foo)",
        "print(a.value(forKey: \"x\")[0])", "a.value(forKey: \"arr\").append(1)", "print(a.value(forKey: \"arr\")[9])",
        "for q in a { }", "for q in \"abc\" { }", "if 1 { }", "while \"s\" { }", "print(-\"s\")", "print([1] + 1)",
        "print(a < a)", "print(\"a\" * 3)", "a.x = \"s\"", "a.x = nil", "a.setValue(1e300, forKey: \"x\")",
        "a.setValue(0.0 / 0.0, forKey: \"x\")",
    ])
    func unknownMembersAndTypeErrorsAtRunTime(_ statement: String) throws {
        let result = try A.check(
            """
            class A { var x: Int = 0
                var arr: [Int] }
            let a = A()
            let x = [1]
            var d = x
            \(statement)
            print("not reached")

            """, .runtimeError)
        #expect(!result.out.contains("not reached"))
        #expect(result.err.hasPrefix("adv.kvo:6:"), "\(result)")
    }

    // MARK: Exceptions in handlers, release during delivery

    @Test func exceptionInAHandlerWithKeepGoingLaterSetsStillNotify() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P {
                func observeValue(keyPath, object, change, context) {
                    print("handling \\(change.new)")
                    object.removeObserver(self, forKeyPath: "nope")
                }
            }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2
            a.x = 3
            print("end")

            """, .exception, arguments: ["--keep-going"])
        #expect(
            result.out.components(separatedBy: "*** Statement stopped by uncaught exception 'NSRangeException'").count
                == 4, "\(result)")
        #expect(!result.out.contains("Terminating app"), "the run went on: \(result)")
        // Each names the handler's statement that raised it.
        #expect(
            result.err.components(
                separatedBy: "adv.kvo:5:30: note: the uncaught exception 'NSRangeException' was raised here"
            )
            .count == 4, "\(result)")
        for n in 1...3 {
            #expect(result.out.contains("a.x → p {kind = 1; new = \(n)}"), "\(result)")
            #expect(result.out.contains("handling \(n)"), "\(result)")
        }
        #expect(result.out.hasSuffix("end\n"), "\(result)")
    }

    @Test func runtimeErrorInAHandlerWithKeepGoing() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P { func observeValue(keyPath, object, change, context) { print(10 / (change.new - 1)) } }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2
            print("end")

            """, .runtimeError, message: "division by zero", arguments: ["--keep-going"])
        #expect(result.out == "a.x → p {kind = 1; new = 1}\na.x → p {kind = 1; new = 2}\n  10\nend\n", "\(result)")
        #expect(result.err.hasPrefix("adv.kvo:2:"), "\(result)")
    }

    @Test func caughtExceptionsInNestedHandlersUnwindCleanly() throws {
        let result = try A.check(
            """
            class A {
                var x: Int = 0
                func observeValue(keyPath, object, change, context) {
                    if x < 50 { x = x + 1 }
                    if x == 50 { removeObserver(self, forKeyPath: "nope") }
                }
            }
            let a = A()
            a.addObserver(a, forKeyPath: "x")
            do { a.x = 1 } catch NSRangeException { print("caught at top: \\(a.x)") }
            a.x = 100
            print("end")

            """, .success, arguments: ["--quiet"])
        #expect(result.out.contains("caught at top: 50"), "\(result)")
        #expect(result.out.hasSuffix("end\n"), "\(result)")
    }

    @Test func observerReleasesItselfDuringDelivery() throws {
        let result = try A.check(
            """
            class A { var x: Int = 0 }
            class P { func observeValue(keyPath, object, change, context) { release(self) } }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "x", options: [.new])
            a.x = 1
            a.x = 2

            """, .runtimeError, message: "message sent to deallocated instance <P: p>")
        #expect(result.out == "a.x → p {kind = 1; new = 1}\n", "\(result)")
    }

    @Test func observerReleasesTheObservedObjectAndAnotherObserverDuringDelivery() throws {
        try A.check(
            """
            class A { var x: Int = 0 }
            class P { var other: P?
                func observeValue(keyPath, object, change, context) {
                    release(other)
                    release(object)
                    print(object.x)
                } }
            let a = A()
            let p = P()
            let q = P()
            p.other = q
            q.other = p
            a.addObserver(p, forKeyPath: "x", options: [.new, .prior])
            a.addObserver(q, forKeyPath: "x", options: [.new, .prior])
            a.x = 1
            a.x = 2
            print(a.x)
            release(a)
            print("end")

            """, .runtimeError, arguments: ["--keep-going"])
    }

    @Test func releaseInsideAPriorNotificationOfANestedChange() throws {
        try A.check(
            """
            class A {
                var x: Int = 0
                var y: Int = 0
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "x" { y = y + 1 }
                    if keyPath == "y" { release(self) }
                }
            }
            let a = A()
            a.addObserver(a, forKeyPath: "x", options: [.prior])
            a.addObserver(a, forKeyPath: "y", options: [.prior])
            a.x = 1
            print("end")

            """, .runtimeError, message: "use of released object <A: a>")
    }

    // MARK: Very long inputs

    @Test func oneMegabyteIdentifier() throws {
        let name = String(repeating: "a", count: 1 << 20)
        let result = try A.check("let \(name) = 1\nprint(\(name))\n", .success, timeout: A.largeInputTimeout)
        #expect(result.out == "1\n")
        try A.check(
            "print(" + String(repeating: "b", count: 1 << 20) + ")\n", .scriptError, message: "cannot find",
            timeout: A.largeInputTimeout)
    }

    @Test func oneMegabyteString() throws {
        let result = try A.check(
            "let s = \"" + String(repeating: "x", count: 1 << 20) + "\"\nprint(s.count)\n", .success,
            timeout: A.largeInputTimeout)
        #expect(result.out == "1048576\n")
        try A.check(
            "let s = \"" + String(repeating: "x", count: 1 << 20) + "\n", .scriptError, message: "unterminated string",
            timeout: A.largeInputTimeout)
    }

    @Test func oneMegabyteLines() throws {
        try A.check(
            "// " + String(repeating: "c", count: 1 << 20) + "\nprint(1)\n", .success, timeout: A.largeInputTimeout)
        try A.check(String(repeating: " ", count: 1 << 20) + "print(1)\n", .success, timeout: A.largeInputTimeout)
        try A.check(String(repeating: ";", count: 1 << 20) + "\nprint(1)\n", .success, timeout: A.largeInputTimeout)
        let errorAtTheEnd = try A.check(
            String(repeating: "print(1); ", count: 100_000) + "print(nope)\n", .scriptError,
            message: "cannot find 'nope' in scope", timeout: A.largeInputTimeout)
        #expect(errorAtTheEnd.err.hasPrefix("adv.kvo:1:1000007: error:"), "\(errorAtTheEnd.err.prefix(200))")
    }

    @Test func hundredThousandStatements() throws {
        let result = try A.check(
            "var x = 0\n" + String(repeating: "x = x + 1\n", count: 100_000) + "print(x)\n", .success,
            timeout: A.largeInputTimeout)
        #expect(result.out == "100000\n")
        let limited = try A.check(
            "var x = 0\n" + String(repeating: "x = x + 1\n", count: 100_000) + "print(x)\n", .runtimeError,
            message: "more than 5000 statements executed", arguments: ["--max-steps", "5000"],
            timeout: A.largeInputTimeout)
        #expect(limited.err.hasPrefix("adv.kvo:5001:"), "\(limited.err.prefix(200))")
    }

    /// Every error, or the first ones and a note that there are more: either
    /// way in order, starting with the first line, and not megabytes of them.
    @Test func hundredThousandErrors() throws {
        let result = try A.check(
            String(repeating: "print(nope)\n", count: 100_000), .scriptError, timeout: A.largeInputTimeout)
        let locations = A.errorLocations(in: result.err, file: "adv.kvo")
        #expect(locations.first.map { $0 == (1, 7) } == true, "\(result.err.prefix(300))")
        #expect(zip(locations, locations.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "errors out of order")
        #expect(result.err.utf8.count < 16 << 20, "stderr is \(result.err.utf8.count) bytes")
    }

    @Test func hundredThousandParametersAndArguments() throws {
        let parameters = (0..<100_000).map { "p\($0)" }.joined(separator: ", ")
        try A.check("func f(\(parameters)) { return p99999 }\nprint(1)\n", .success, timeout: A.largeInputTimeout)
        try A.check(
            "func f(x) { }\nf(" + String(repeating: "1, ", count: 100_000) + "1)\n", .scriptError,
            timeout: A.largeInputTimeout)
        let result = try A.check(
            "let a = [" + String(repeating: "1, ", count: 100_000) + "1]\nprint(a.count)\n", .success,
            timeout: A.largeInputTimeout)
        #expect(result.out == "100001\n")
    }

    // MARK: Deeply nested values built at run time

    /// `a = [a]` 100,000 times: printing, comparing, interpolating and
    /// deallocating the value must not recurse past the stack.
    @Test(arguments: [
        ("print", "print(a)\nprint(\"done\")\n"),
        ("count and deallocate", "print(a.count)\na = []\nprint(\"done\")\n"),
        ("compare", "var b = []\nfor i in 0..<100000 { b = [b] }\nprint(a == b)\n"),
        ("contains", "print([a].contains(a))\n"),
        ("interpolate", "let s = \"\\(a)\"\nprint(s.count)\n"),
        (
            "store in an observed property",
            """
            class H { var items: [Any] }
            class W { }
            let h = H()
            let w = W()
            h.addObserver(w, forKeyPath: "items", options: [.new, .old])
            h.items = a
            h.items = []
            print("done")

            """
        ),
        ("collection operator", "print(a.value(forKeyPath: \"@count\"))\n"),
    ])
    func hundredThousandDeepArray(_ name: String, _ tail: String) throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<100000 { a = [a] }\n" + tail, .success, timeout: A.largeInputTimeout, name)
        #expect(!result.out.isEmpty)
    }

    @Test func hundredThousandDeepArrayAsJSON() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<100000 { a = [a] }\nprint(a)\n", .success,
            arguments: ["--format", "json"], timeout: A.largeInputTimeout)
        #expect(result.out.hasPrefix("{\"event\":\"print\""))
    }

    /// Ten million levels: building is linear, but releasing the value (here at
    /// the end of the run) recurses once per level in Swift's array
    /// destructor, which overflows even the interpreter's 1 GB stack.
    @Test func tenMillionDeepArrayIsReleasedWithoutACrash() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<10000000 { a = [a] }\nprint(\"built\")\na = []\nprint(\"freed\")\n",
            .anyStatus, timeout: 120)
        if result.status == 0 { #expect(result.out == "built\nfreed\n") }
    }

    /// Describing a 1,000,000-deep array should take time linear in its
    /// length (2 MB of parentheses), not rebuild every inner string per level.
    @Test func millionDeepArrayPrintsInLinearTime() throws {
        let result = try A.check(
            "var a = []\nfor i in 0..<1000000 { a = [a] }\nlet s = \"\\(a)\"\nprint(s.count)\n",
            .success, timeout: A.largeInputTimeout)
        #expect(result.out == "2000002\n", "\(result)")
    }

    /// A change dictionary carrying a 1,000,000-deep array, in JSON: the
    /// encoder appends into one buffer with its own stack (it rebuilt every
    /// inner string per level, which did not finish in two minutes).
    @Test func millionDeepArrayInAJSONChangeDictionaryInLinearTime() throws {
        let source = """
            class Box { var items: [Any] = [] }
            class Watcher { }
            let box = Box()
            let w = Watcher()
            var a = []
            for i in 0..<1000000 { a = [a] }
            box.addObserver(w, forKeyPath: "items", options: [.new])
            box.items = a
            print("done")

            """
        let result = try A.check(source, .success, arguments: ["--format", "json"], timeout: A.largeInputTimeout)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("{\"event\":\"notify\"") == true)
        #expect(lines.first?.utf8.count ?? 0 > 2_000_000)
    }

    /// `a = [a, a]` forty times is a small value whose description has 2^40
    /// leaves. Describing it stops just under 64 MiB with `…` instead of
    /// running for ever and exhausting memory (the JSON encoder: RuntimeTests).
    @Test func selfDoublingArrayDescriptionIsCut() throws {
        let source = """
            var a = [1]
            for i in 0..<40 { a = [a, a] }
            let s = "\\(a)"
            print(s.count > 67104768)
            print(s.count < 67108864)

            """
        let result = try A.check(source, .success, timeout: A.largeInputTimeout)
        #expect(result.out == "true\ntrue\n", "\(result)")
    }

    // MARK: Memory

    /// Forty doublings ask for a terabyte in a handful of statements, which
    /// --max-steps cannot stop. Under a 4 GB address-space limit kvo-run
    /// should end with a runtime error, not abort in the allocator ("Fatal
    /// error: failed to allocate … bytes", signal 6) or be OOM-killed.
    @Test(
        .enabled(if: !Adversarial.underAddressSanitizer, "ulimit -v does not work with ASan"),
        arguments: [
            ("string doubling", "var s = \"x\"\nfor i in 0..<40 { s = s + s }\nprint(s.count)\n"),
            ("array doubling", "var a = [1]\nfor i in 0..<40 { a = a + a }\nprint(a.count)\n"),
            ("interpolation doubling", "var s = \"x\"\nfor i in 0..<40 { s = \"\\(s)\\(s)\" }\nprint(s.count)\n"),
        ])
    func exponentialGrowthIsARuntimeErrorNotAnAbort(_ name: String, _ source: String) throws {
        try A.check(
            source, .runtimeError, arguments: ["--max-steps", "1000"], timeout: A.largeInputTimeout,
            memoryLimitKB: 4_000_000, name)
    }

    // MARK: --max-steps on infinite loops

    @Test(arguments: [
        "while true { }",
        "var i = 0\nwhile true { i = i + 1 }",
        "for i in 0...9223372036854775807 { }",
        "for x in [1, 2] { for i in 0...9223372036854775807 { } }",
        "func f() { while true { } }\nf()",
        "while true { do { while true { } } catch { } }",
        "class A { var x: Int = 0\n    func observeValue(keyPath, object, change, context) { while true { } } }\nlet a = A()\na.addObserver(a, forKeyPath: \"x\")\na.x = 1",
        "class A { var x: Int = 0\n    func observeValue(keyPath, object, change, context) { x = x + 1 } }\nlet a = A()\na.addObserver(a, forKeyPath: \"x\")\nwhile true { a.x = 0 }",
        "var a = [1]\nwhile true { a.append(1) }",
    ])
    func maxStepsStopsInfiniteLoops(_ source: String) throws {
        for keepGoing in [false, true] {
            let result = try A.check(
                source + "\nprint(\"not reached\")\n", .runtimeError,
                message: "more than 1000 statements executed; raise the limit with --max-steps",
                arguments: ["--max-steps", "1000", "--quiet"] + (keepGoing ? ["--keep-going"] : []))
            #expect(!result.out.contains("not reached") || keepGoing, "\(result)")
        }
    }

    // MARK: Fuzz regressions

    /// Every input libFuzzer found (Fuzz/regressions, see `make fuzz`) checks or
    /// fails cleanly.
    @Test func fuzzRegressions() throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: A.regressionsDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".kvo") }.sorted()
        for name in names {
            let bytes = Array(try Data(contentsOf: A.regressionsDirectory.appendingPathComponent(name)))
            for arguments in [
                [], ["--keep-going", "--max-steps", "5000", "--max-depth", "50"], ["--format", "json", "--keep-going"],
            ] {
                let result = try A.run(bytes, arguments: arguments)
                #expect(!result.crashed, "\(name) \(arguments): \(result)")
                #expect([0, 1, 2].contains(result.status), "\(name) \(arguments): \(result)")
            }
        }
    }
}
