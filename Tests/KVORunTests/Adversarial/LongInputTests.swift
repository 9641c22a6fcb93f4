import _KVOTestSupport
import Foundation
import Testing

/// Megabyte identifiers, strings and lines; 100,000 statements, errors, parameters.
/// Part of the adversarial suite: each case runs kvo-run through `Adversarial.check`.
@Suite(.serialized) struct LongInputTests {
    typealias A = Adversarial

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
}
