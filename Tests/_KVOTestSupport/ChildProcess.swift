import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The one way the tests start another program (kvo-run, bash, python3):
/// standard output and standard error go to files, so a large output can
/// never block the child, and a child that outlives its time is killed.
public enum ChildProcess {
    /// What the child reads.
    public enum Input: Sendable {
        /// /dev/null: never a terminal.
        case none
        /// A pipe fed with this text, then closed.
        case pipe(String)
    }

    /// How its output is read back once it has ended.
    public enum ReadBack: Sendable {
        /// All of it, as UTF-8: output that is not UTF-8 fails the run.
        case strictUTF8
        /// At most this many bytes of each stream, invalid UTF-8 replaced.
        case upTo(Int)
    }

    /// How a run ended.
    public struct Outcome {
        public var status: Int32
        /// True when the child died of a signal (`status` is then the signal).
        public var signalled: Bool
        public var out: String
        public var err: String
        /// Why the child was killed (its time or `outputLimit` ran out), or nil
        /// when it ended by itself.
        public var killed: String?
    }

    /// The environment of the test runner with `extra` over it, and without
    /// colour, history file or backtraces (which would make outputs differ
    /// from run to run and a crash slow).
    public static func quietEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["KVO_HISTORY"] = ""
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `executable` with `arguments` in `directory` and waits for it.
    ///
    /// After `timeout` seconds, or once either output file passes
    /// `outputLimit` bytes, the child is killed with SIGKILL, never SIGTERM:
    /// the child inherits SIGTERM blocked from the test runner's threads, so a
    /// hung kvo-run would never stop and the test would wait forever. The
    /// output files live in a scratch folder of their own, removed after.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL?,
        stdin: Input = .none, environment: [String: String] = quietEnvironment(),
        timeout: TimeInterval, outputLimit: Int? = nil, readBack: ReadBack = .strictUTF8,
        pollInterval: useconds_t = 10_000
    ) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? scratch
        process.environment = environment
        process.standardOutput = outHandle
        process.standardError = errHandle
        var pipe: Pipe?
        switch stdin {
        case .none:
            process.standardInput = FileHandle.nullDevice
        case .pipe:
            pipe = Pipe()
            process.standardInput = pipe
        }
        try process.run()
        if case .pipe(let text) = stdin, let pipe {
            pipe.fileHandleForWriting.write(Data(text.utf8))
            try pipe.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(timeout)
        var killed: String?
        while process.isRunning {
            if Date() > deadline {
                killed = "did not finish in \(Int(timeout)) s"
            } else if let outputLimit, size(of: outURL) > outputLimit || size(of: errURL) > outputLimit {
                killed =
                    "wrote more than \(outputLimit >> 20) MB (stdout \(size(of: outURL)) bytes, stderr \(size(of: errURL)) bytes)"
            }
            if killed != nil {
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(pollInterval)
        }
        process.waitUntilExit()
        let out: String, err: String
        switch readBack {
        case .strictUTF8:
            out = try String(contentsOf: outURL, encoding: .utf8)
            err = try String(contentsOf: errURL, encoding: .utf8)
        case .upTo(let limit):
            out = read(outURL, upTo: limit)
            err = read(errURL, upTo: limit)
        }
        return Outcome(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            out: out, err: err, killed: killed)
    }

    static func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// At most `limit` bytes of the file at `url`, as text ("" if unreadable).
    public static func read(_ url: URL, upTo limit: Int) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "" }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
