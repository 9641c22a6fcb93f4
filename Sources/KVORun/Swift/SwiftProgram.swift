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
        var source = source
        return source.withUTF8 { firstStatementImportsFoundation(UnsafeRawBufferPointer($0)) }
    }

    /// Playgrounds start with `import UIKit` or `import AppKit`, which bring Foundation in.
    private static let foundationImports: [StaticString] = [
        "import Foundation", "import Cocoa", "import UIKit", "import AppKit",
    ]

    /// Whether the first line with a statement (past blank lines, `//` and
    /// `/* */` comments and a `#!` line) imports Foundation. Read as bytes,
    /// line by line, up to that line: splitting the whole source into
    /// Character lines first was 6% of an empty scenario's start-up, and
    /// never split a CRLF file (`\r\n` is one Character).
    static func firstStatementImportsFoundation(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        func hasPrefix(_ prefix: StaticString, at index: Int, before end: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard end - index >= count else { return false }
            return memcmp(base + index, prefix.utf8Start, count) == 0
        }
        func skipBlanks(from index: Int, before end: Int) -> Int {
            var index = index
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            return index
        }
        var inComment = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let next = end + 1
            if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            defer { lineStart = next }
            var index = skipBlanks(from: lineStart, before: end)
            if hasPrefix("#!", at: index, before: end) { continue }
            while true {
                if inComment > 0 {
                    var close = index
                    while close < end, !hasPrefix("*/", at: close, before: end) { close += 1 }
                    guard close < end else { break }
                    inComment -= 1
                    index = skipBlanks(from: close + 2, before: end)
                    continue
                }
                if hasPrefix("/*", at: index, before: end) {
                    inComment += 1
                    index += 2
                    continue
                }
                break
            }
            if inComment > 0 || index == end || hasPrefix("//", at: index, before: end) { continue }
            return foundationImports.contains { hasPrefix($0, at: index, before: end) }
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
