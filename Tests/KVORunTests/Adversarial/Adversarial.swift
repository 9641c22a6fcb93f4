import _KVOTestSupport
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
    /// Not `CLI.run`: this one also stops a run whose output passes
    /// `outputLimit`, reads back at most `readLimit` bytes of each stream, and
    /// reports a run that was killed with what it wrote.
    static func run(
        _ bytes: [UInt8], file: String = "adv.kvo", arguments: [String] = [],
        timeout: TimeInterval = timeout, memoryLimitKB: Int? = nil
    ) throws -> CLI.Result {
        guard let binary = CLI.binary else { throw Failure(description: "kvo-run not found (see CLI.binary)") }
        let folder = try Folder()
        try Data(bytes).write(to: folder.url.appendingPathComponent(file))
        let outcome: ChildProcess.Outcome
        if let memoryLimitKB {
            // Through the shell, for its `ulimit -v`: the child may then fail to
            // allocate, but never takes the machine's memory.
            outcome = try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "ulimit -v \(memoryLimitKB) && exec \"$0\" \"$@\"", binary.path] + arguments + [file],
                in: folder.url, timeout: timeout, outputLimit: outputLimit, readBack: .upTo(readLimit),
                pollInterval: 5_000)
        } else {
            outcome = try ChildProcess.run(
                binary, arguments + [file], in: folder.url, timeout: timeout, outputLimit: outputLimit,
                readBack: .upTo(readLimit), pollInterval: 5_000)
        }
        let out = outcome.out, err = outcome.err
        if let problem = outcome.killed {
            throw Failure(
                description:
                    "kvo-run \((arguments + [file]).joined(separator: " ")) \(problem) on a \(bytes.count)-byte input \(preview(bytes))\n--- stdout\n\(out.prefix(2000))\n--- stderr\n\(err.prefix(2000))"
            )
        }
        // Through the shell, a signal shows as status 128 + N; under `make
        // test-asan`, AddressSanitizer reports a crash and exits with status 1.
        let signalled =
            outcome.signalled || (memoryLimitKB != nil && outcome.status > 128)
            || err.contains("ERROR: AddressSanitizer")
        return CLI.Result(status: outcome.status, crashed: signalled, out: out, err: err)
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

    /// Deterministic pseudo-random bytes, so failures reproduce.
    typealias SplitMix64 = _KVOTestSupport.SplitMix64

    static var conformanceDirectory: URL { packageRoot().appendingPathComponent("Tests/Conformance") }

    static func conformanceCases() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: conformanceDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".kvo") }.sorted()
    }

    static var regressionsDirectory: URL { packageRoot().appendingPathComponent("Fuzz/regressions") }

    static let depthExceeded = "nested deeper than the maximum depth"
    static let nestingLimit = "nesting deeper than 256 levels"
}
