import Foundation

/// The `kvo-run` executable under test, run as a separate process.
public enum CLI {
    /// `kvo-run` next to the test bundle (the build's products folder, whatever
    /// the scratch path), else `.build/debug/kvo-run`.
    public static let binary: URL? = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first, !first.isEmpty {
            let runner = URL(fileURLWithPath: first).resolvingSymlinksInPath()
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("kvo-run"))
            // On macOS the runner lives inside Foo.xctest/Contents/MacOS.
            candidates.append(
                runner.deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("kvo-run"))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("kvo-run"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("kvo-run"))
        candidates.append(packageRoot().appendingPathComponent(".build/debug/kvo-run"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    public struct Result: CustomStringConvertible {
        public var status: Int32
        /// True when the process died of a signal (status is then the signal).
        public var crashed: Bool
        public var out: String
        public var err: String

        public init(status: Int32, crashed: Bool, out: String, err: String) {
            self.status = status
            self.crashed = crashed
            self.out = out
            self.err = err
        }

        public var description: String {
            "\(crashed ? "signal" : "status") \(status)\n--- stdout\n\(out.prefix(4000))\n--- stderr\n\(err.prefix(4000))"
        }
        public var outLines: [String] {
            Array(
                out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
                    out.hasSuffix("\n") ? 1 : 0))
        }
    }

    public typealias Input = ChildProcess.Input

    /// Runs kvo-run (or `executable`, a path) with `arguments` in `directory`
    /// (a scratch folder when nil), in the quiet environment with `extra` over
    /// it; a run longer than `timeout` seconds is killed and fails.
    public static func run(
        _ arguments: [String], stdin: Input = .none, in directory: URL? = nil,
        timeout: TimeInterval = 300, executable: String? = nil, environment extra: [String: String] = [:]
    ) throws -> Result {
        guard let program = executable.map({ URL(fileURLWithPath: $0) }) ?? binary else {
            throw Failure(
                "kvo-run not found next to the test runner (\(CommandLine.arguments.first ?? "?")) nor in .build/debug")
        }
        let outcome = try ChildProcess.run(
            program, arguments, in: directory, stdin: stdin, environment: ChildProcess.quietEnvironment(extra),
            timeout: timeout)
        if outcome.killed != nil {
            throw Failure(
                "\(program.lastPathComponent) \(arguments.joined(separator: " ")) did not finish in \(Int(timeout)) s")
        }
        return Result(status: outcome.status, crashed: outcome.signalled, out: outcome.out, err: outcome.err)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}

/// A temporary folder with scenario files, removed after the test.
public final class Folder {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-run-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    public func run(
        _ arguments: [String], stdin: CLI.Input = .none, environment: [String: String] = [:]
    ) throws
        -> CLI.Result
    {
        try CLI.run(arguments, stdin: stdin, in: url, environment: environment)
    }

    public func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
}
