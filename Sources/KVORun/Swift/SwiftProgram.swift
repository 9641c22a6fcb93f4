import KVOCore
import KVOHost
import KVOOutput
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

/// A Swift program (SPEC §11.0): rewritten for the runtime, compiled by the
/// toolchain's `swiftc`, run as a child process whose output is the trace.
///
/// Where the runtime comes from: kvo-run compiles it itself, once per
/// toolchain and runtime version, from the sources of KVOCore, KVOOutput
/// and KVOFoundation (three modules, as in the package), into `$XDG_CACHE_HOME/kvo-run` (else `~/.cache/kvo-run`).
/// It does not reuse the package's own build of them: those are built with
/// the unsafe single-threaded flags of Package.swift, and a program may use
/// threads. The sources are found, in order, in `$KVO_RUNTIME_SOURCES`, in
/// `share/kvo-run/runtime` beside the installed binary (`make install`
/// copies them there), and in the checkout this binary was built from
/// (`#filePath`: a fresh clone and CI need nothing more). The cache key
/// hashes those sources, the flags they are built with and `swiftc
/// --version`, so a changed runtime or toolchain is rebuilt; programs are
/// cached by their source, file name, runtime and kvo-run build, so that a
/// cached program starts without being rewritten or compiled.
public enum SwiftProgram {
    /// How a Swift program runs: the run's settings as the command line and
    /// QuickStart fill them for every route (`ScenarioSettings`, where each
    /// field and its default is stated once; `settings.maxDepth` reads
    /// `settings.run.maxDepth`), and what only this route decides. A Swift
    /// program cannot honour `--keep-going` (SPEC §11.0: Swift cannot catch
    /// an NSException): the runtime says so when an uncaught exception or a
    /// runtime error ends the program; `--max-steps` and `--stats` are the
    /// command's.
    @dynamicMemberLookup
    public struct Settings {
        public var run = ScenarioSettings()
        /// ANSI colours on the trace (standard output) and diagnostics
        /// (standard error), as for a scenario on a terminal.
        public var color = false
        public var diagnosticColor = false
        /// Whether the run's counts are wanted back (`--stats`, `--quiet`).
        public var wantsSummary = false
        /// A picture instead of the trace: `kvo-run graph`, `kvo-run trace`.
        public var picture: Picture?
        /// What set `timeout`, as a step stopped by it says: `--timeout`, or
        /// `kvo-run test`'s limit per Swift scenario (`runCaptured`).
        var timeoutOrigin = Deadline.Origin.option
        public init() {}

        public subscript<Value>(dynamicMember field: WritableKeyPath<ScenarioSettings, Value>) -> Value {
            get { run[keyPath: field] }
            set { run[keyPath: field] = newValue }
        }
    }

    /// The picture a run draws instead of writing its trace; the program's
    /// own standard output then goes to standard error, where it cannot
    /// mix with the picture.
    public enum Picture: Sendable {
        /// The observation graph (DOT) at the end, or just after the last
        /// top-level statement at or before line `at`.
        case graph(at: Int?)
        /// The sequence diagram (SVG), titled so.
        case trace(title: String)
    }

    /// What a run gave back besides its status, written by the runtime as
    /// the program ended; nil when it never got there (a compile error, a
    /// trap or a signal). The counts are the channel's
    /// (`summary.notifications` reads `summary.counts.notifications`).
    @dynamicMemberLookup
    public struct Summary: Equatable, Sendable {
        public var counts = ProgramChannel.Summary()
        /// The picture asked for: DOT or SVG.
        public var picture: String?

        public subscript<Value>(dynamicMember field: WritableKeyPath<ProgramChannel.Summary, Value>) -> Value {
            get { counts[keyPath: field] }
            set { counts[keyPath: field] = newValue }
        }
    }

    /// A `.swift` file, or a scenario whose first statement is `import Foundation`.
    public static func isSwift(_ source: String, file: String) -> Bool {
        if file.hasSuffix(".swift") { return true }
        var inComment = 0
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#!") { continue }
            while true {
                if inComment > 0 {
                    guard let star = line.indices.first(where: { line[$0...].hasPrefix("*/") }) else { break }
                    inComment -= 1
                    line = line[line.index(star, offsetBy: 2)...].drop { $0 == " " || $0 == "\t" }
                    continue
                }
                if line.hasPrefix("/*") {
                    inComment += 1
                    line = line.dropFirst(2)
                    continue
                }
                break
            }
            if inComment > 0 || line.isEmpty || line.hasPrefix("//") { continue }
            // Playgrounds start with `import UIKit` or `import AppKit`, which bring Foundation in.
            return ["import Foundation", "import Cocoa", "import UIKit", "import AppKit"].contains {
                line.hasPrefix($0)
            }
        }
        return false
    }

    /// How a step failed: said on standard error (or as a JSON `error`
    /// event), with the exit status to end with.
    public struct Failure: Error {
        public let message: String
        public let status: Int32
    }
}
