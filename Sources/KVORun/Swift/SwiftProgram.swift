import KVOCore
import KVOScript
import SwiftRewriter

#if canImport(Glibc)
import Glibc
#endif

/// A Swift program (SPEC §11.0): rewritten for the runtime, compiled by the
/// toolchain's `swiftc`, run as a child process whose output is the trace.
///
/// Where the runtime comes from: kvo-run compiles it itself, once per
/// toolchain and runtime version, from the sources of KVOCore and
/// KVOFoundation, into `$XDG_CACHE_HOME/kvo-run` (else `~/.cache/kvo-run`).
/// It does not reuse the package's own build of them: those are built with
/// the unsafe single-threaded flags of Package.swift, and a program may use
/// threads. The sources are found, in order, in `$KVO_RUNTIME_SOURCES`, in
/// `share/kvo-run/runtime` beside the installed binary (`make install`
/// copies them there), and in the checkout this binary was built from
/// (`#filePath`: a fresh clone and CI need nothing more). The cache key
/// hashes those sources and `swiftc --version`, so a changed runtime or
/// toolchain is rebuilt; programs are cached by the hash of their rewritten
/// text and that key.
public enum SwiftProgram {
    public struct Settings {
        public var swiftc: String?
        public var format: OutputFormatKind = .text
        public var maxDepth = 1000
        public var quiet = false
        public var legacyDealloc = false
        public var timeout: Double?
        public init() {}
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

    // MARK: Running

    /// Rewrites, compiles (or finds in the cache) and runs `source`.
    /// `display` names the file in diagnostics; `path` is where it is read
    /// again for source lines. `output` receives everything (golden tests)
    /// or nil for the terminal. Returns the exit status.
    public static func run(
        _ source: String, display: String, path: String?, settings: Settings, compileOnly: Bool = false,
        output: Int32? = nil
    ) -> Int32 {
        let text = SourceText(source)
        // Diagnostics: text on standard error (or into `output`), JSON events
        // on standard output with `--format json`, as for scenarios.
        func emitLine(_ line: String, toStandardOutput: Bool) {
            if let output {
                _ = line.utf8CString.withUnsafeBufferPointer { write(output, $0.baseAddress, $0.count - 1) }
            } else if toStandardOutput {
                Runner.stdout(line)
            } else {
                Runner.stderr(line)
            }
        }
        func report(_ diagnostic: Diagnostic) {
            emitLine(render(diagnostic, display, text, settings) + "\n", toStandardOutput: settings.format == .json)
        }
        let importLine = KVOScript.SourceLocation(line: importLine(of: source), column: 1)
        let rewritten = SwiftRewriter.rewrite(source, fileName: display)
        for warning in rewritten.warnings {
            report(
                Diagnostic(
                    .warning, warning.message,
                    at: KVOScript.SourceLocation(line: warning.line, column: warning.column), length: warning.length))
        }
        // What no rewrite can make run (a module Linux lacks): said at its line, nothing compiled.
        for error in rewritten.errors {
            report(
                Diagnostic(
                    .error, error.message,
                    at: KVOScript.SourceLocation(line: error.line, column: error.column), length: error.length))
        }
        if !rewritten.errors.isEmpty { return ExitStatus.scriptErrors }
        let binary: String
        do {
            let swiftc = try toolchain(settings.swiftc, display: display)
            let runtime = try runtimeDirectory(swiftc: swiftc)
            binary = try compile(
                rewritten.source, display: display, swiftc: swiftc, runtime: runtime, report: report)
        } catch let failure as Failure {
            if !failure.message.isEmpty { report(Diagnostic(.error, failure.message, at: importLine)) }
            return failure.status
        } catch {
            report(Diagnostic(.error, "\(error)", at: importLine))
            return ExitStatus.scriptErrors
        }
        if compileOnly { return ExitStatus.success }
        var environment = [
            "SWIFT_DETERMINISTIC_HASHING": "1",
            "SWIFT_BACKTRACE": "enable=no",
            "KVO_FORMAT": settings.format == .json ? "json" : "text",
            "KVO_MAX_DEPTH": String(settings.maxDepth),
            "KVO_SOURCE_NAME": display,
        ]
        if let path { environment["KVO_SOURCE_PATH"] = absolute(path) }
        if settings.quiet { environment["KVO_QUIET"] = "1" }
        if settings.legacyDealloc { environment["KVO_LEGACY_DEALLOC"] = "1" }
        // The statement a trap or a crash stopped at, written by the runtime.
        let trapFile = temporaryPath("kvo-run-trap")
        defer { unlink(trapFile) }
        environment["KVO_TRAP_FILE"] = trapFile
        Runner.flushStandardStreams()
        let ending = ChildProcess.run(binary, [], environment: environment, output: output, timeout: settings.timeout)
        var stoppedAt = importLine
        if let mark = try? Files.read(trapFile) {
            let numbers = mark.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            if numbers.count == 2, numbers[0] > 0 {
                stoppedAt = KVOScript.SourceLocation(line: numbers[0], column: max(1, numbers[1]))
            }
        }
        switch ending {
        case .exited(let status):
            return status
        case .signaled(let signal):
            report(Diagnostic(.error, "the program stopped: \(ChildProcess.describe(signal: signal))", at: stoppedAt))
            return ExitStatus.failure
        case .timedOut:
            report(
                Diagnostic(
                    .error,
                    "the program ran longer than \(formatSeconds(settings.timeout ?? 0)) s and was stopped (--timeout)",
                    at: stoppedAt))
            return ExitStatus.failure
        case .notStarted(let why):
            report(Diagnostic(.error, "cannot start the compiled program: \(why)", at: importLine))
            return ExitStatus.failure
        }
    }

    /// Runs a Swift golden scenario, capturing all it prints.
    public static func runCaptured(_ source: String, path: String, timeout: Double) -> (text: String, status: Int32) {
        var template = Array("/tmp/kvo-run-output-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { return ("kvo-run: cannot create a temporary file\n", ExitStatus.failure) }
        let tempPath = String(cString: template)
        defer {
            close(descriptor)
            unlink(tempPath)
        }
        var settings = Settings()
        settings.timeout = timeout
        let status = run(source, display: Files.baseName(path), path: path, settings: settings, output: descriptor)
        let text = (try? Files.read(tempPath, limit: OutputWriter.defaultCaptureLimit)) ?? ""
        return (text, status)
    }

    static func render(_ diagnostic: Diagnostic, _ display: String, _ text: SourceText, _ settings: Settings) -> String
    {
        if settings.format == .json {
            return JSONFormat.object([
                ("event", JSONFormat.string(diagnostic.severity.rawValue)),
                ("message", JSONFormat.string(diagnostic.message)),
                ("line", String(diagnostic.location.line)), ("column", String(diagnostic.location.column)),
            ])
        }
        return diagnostic.render(file: display, source: text)
    }

    /// The line of `import Foundation`: what makes the file a Swift program,
    /// where errors about the toolchain point.
    static func importLine(of source: String) -> Int {
        var number = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("import ") { return number }
        }
        return 1
    }

    /// A fresh path in /tmp (the file is created, empty).
    static func temporaryPath(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        if descriptor >= 0 { close(descriptor) }
        return String(cString: template)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    // MARK: The toolchain

    /// `--swiftc PATH`, else `KVO_SWIFTC`, else `swiftc` on PATH.
    static func toolchain(_ named: String?, display: String) throws -> String {
        let chosen = named ?? getenv("KVO_SWIFTC").map { String(cString: $0) }
        if let chosen, !chosen.isEmpty {
            if chosen.contains("/") {
                if access(chosen, X_OK) == 0 { return chosen }
            } else if let found = ExternalTool.find(chosen) {
                return found
            }
            throw Failure(
                message:
                    "this is a Swift program, and the Swift compiler '\(chosen)' (named by --swiftc or KVO_SWIFTC) cannot be run; name an installed swiftc",
                status: ExitStatus.scriptErrors)
        }
        if let found = ExternalTool.find("swiftc") { return found }
        throw Failure(
            message:
                "this is a Swift program (it imports Foundation): running it needs the Swift compiler 'swiftc', which is not on PATH; install a Swift toolchain (swift.org/install) or name one with --swiftc PATH or KVO_SWIFTC=PATH (scenarios without 'import Foundation' never need it)",
            status: ExitStatus.scriptErrors)
    }

    // MARK: The runtime

    /// The folder holding KVOCore/ and KVOFoundation/ sources.
    static func runtimeSources() -> String? {
        if let named = getenv("KVO_RUNTIME_SOURCES") {
            return String(cString: named)
        }
        var candidates: [String] = []
        if let executable = executablePath() {
            let bin = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
            candidates.append(bin + "/../share/kvo-run/runtime")
        }
        // Sources/KVORun/Swift/SwiftProgram.swift → Sources
        var sources = #filePath
        for _ in 0..<3 {
            if let slash = sources.lastIndex(of: "/") { sources = String(sources[..<slash]) }
        }
        candidates.append(sources)
        return candidates.first { Files.isDirectory($0 + "/KVOFoundation") && Files.isDirectory($0 + "/KVOCore") }
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(cString: buffer)
    }

    static func cacheRoot() -> String {
        if let xdg = getenv("XDG_CACHE_HOME"), xdg.pointee != 0 { return String(cString: xdg) + "/kvo-run" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/tmp"
        return home + "/.cache/kvo-run"
    }

    /// The compiled runtime for `swiftc`, built on first use.
    static func runtimeDirectory(swiftc: String) throws -> String {
        guard let sources = runtimeSources() else {
            throw Failure(
                message:
                    "the sources of the Swift runtime (KVOCore and KVOFoundation) are not installed; reinstall kvo-run with 'make install' or set KVO_RUNTIME_SOURCES to the Sources folder of its checkout",
                status: ExitStatus.scriptErrors)
        }
        let coreFiles = Files.find(under: sources + "/KVOCore", suffix: ".swift").sorted()
        let foundationFiles = Files.find(under: sources + "/KVOFoundation", suffix: ".swift").sorted()
        var hash = FNV1a()
        hash.add(toolchainVersion(swiftc))
        for file in coreFiles + foundationFiles {
            hash.add(String(file.dropFirst(sources.count)))
            hash.add((try? Files.read(file)) ?? "")
        }
        let directory = cacheRoot() + "/runtime-" + hash.hex
        if Files.exists(directory + "/libKVOFoundation.so") { return directory }
        try makeDirectories(cacheRoot())
        // Built beside, then moved into place: two runs at once never see half a runtime.
        let building = directory + ".building-\(getpid())"
        try makeDirectories(building)
        defer { removeTree(building) }
        let log = building + "/build.log"
        let common = ["-O", "-wmo", "-parse-as-library", "-swift-version", "5", "-emit-library", "-I", building]
        let core =
            common + [
                "-module-name", "KVOCore", "-emit-module", "-emit-module-path", building + "/KVOCore.swiftmodule",
                "-o", building + "/libKVOCore.so",
            ] + coreFiles
        try compileStep(swiftc, core, log: log)
        let foundation =
            common + [
                "-module-name", "KVOFoundation", "-emit-module", "-emit-module-path",
                building + "/KVOFoundation.swiftmodule", "-L", building, "-lKVOCore",
                "-Xlinker", "-rpath", "-Xlinker", directory, "-o", building + "/libKVOFoundation.so",
            ] + foundationFiles
        try compileStep(swiftc, foundation, log: log)
        if rename(building, directory) != 0 && !Files.exists(directory + "/libKVOFoundation.so") {
            throw Failure(
                message: "cannot store the Swift runtime in \(directory): \(String(cString: strerror(errno)))",
                status: ExitStatus.failure)
        }
        return directory
    }

    private static func compileStep(_ swiftc: String, _ arguments: [String], log: String) throws {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { if descriptor >= 0 { close(descriptor) } }
        let ending = ChildProcess.run(swiftc, arguments, output: descriptor >= 0 ? descriptor : nil)
        guard ending == .exited(0) else {
            let text = (try? Files.read(log)) ?? ""
            throw Failure(
                message: "building the Swift runtime with \(swiftc) failed:\n" + text,
                status: ExitStatus.failure)
        }
    }

    /// `swiftc --version`, part of the runtime's cache key. Asking costs a
    /// process (half a second on a loaded machine), so the answer is kept,
    /// keyed by the compiler's path, size and modification time: a new
    /// toolchain at the same path is asked again.
    static func toolchainVersion(_ swiftc: String) -> String {
        var info = stat()
        var key = FNV1a()
        key.add(swiftc)
        if stat(swiftc, &info) == 0 {
            key.add(String(info.st_size))
            key.add(String(info.st_mtim.tv_sec) + "." + String(info.st_mtim.tv_nsec))
        }
        let remembered = cacheRoot() + "/toolchains/" + key.hex
        if let known = try? Files.read(remembered), !known.isEmpty { return known }
        let path = temporaryPath("kvo-run-version")
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return swiftc }
        _ = ChildProcess.run(swiftc, ["--version"], output: descriptor)
        close(descriptor)
        let version = swiftc + "\n" + ((try? Files.read(path)) ?? "")
        if (try? makeDirectories(cacheRoot() + "/toolchains")) != nil {
            try? Files.write(version, to: remembered)
        }
        return version
    }

    // MARK: Compiling a program

    /// The compiled program, from the cache when its text and runtime are known.
    static func compile(
        _ program: String, display: String, swiftc: String, runtime: String, report: (Diagnostic) -> Void
    ) throws -> String {
        var hash = FNV1a()
        hash.add(runtime)
        hash.add(program)
        let directory = cacheRoot() + "/programs/" + hash.hex
        let binary = directory + "/program"
        if Files.exists(binary) { return binary }
        try makeDirectories(directory)
        let building = directory + "/building-\(getpid())"
        try makeDirectories(building)
        defer { removeTree(building) }
        // The file is named after the user's own, so that a trap's message names it.
        let sourcePath = building + "/main.swift"
        try Files.write(program, to: sourcePath)
        let log = building + "/compile.log"
        let descriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = [
            "-swift-version", "5", "-module-name", "main", "-Onone", "-suppress-warnings",
            "-diagnostic-style", "llvm", "-I", runtime, "-L", runtime, "-lKVOFoundation", "-lKVOCore",
            "-Xlinker", "-rpath", "-Xlinker", runtime, sourcePath, "-o", building + "/program",
        ]
        let ending = ChildProcess.run(swiftc, arguments, output: descriptor >= 0 ? descriptor : nil)
        if descriptor >= 0 { close(descriptor) }
        guard ending == .exited(0) else {
            let text = (try? Files.read(log)) ?? ""
            // A note at the very place of the error before it is one of swiftc's
            // fix-it suggestions ("did you mean to use 'try'?"): left out.
            var diagnostics: [Diagnostic] = []
            for diagnostic in compilerDiagnostics(text, display: display) {
                if diagnostic.severity == .note, let last = diagnostics.last(where: { $0.severity != .note }),
                    last.location == diagnostic.location
                {
                    continue
                }
                diagnostics.append(diagnostic)
            }
            for diagnostic in diagnostics { report(diagnostic) }
            if diagnostics.isEmpty {
                report(
                    Diagnostic(
                        .error, "swiftc could not compile the program:\n\(text)",
                        at: KVOScript.SourceLocation(line: 1, column: 1)))
            }
            // Already reported, each at its line.
            throw Failure(message: "", status: ExitStatus.scriptErrors)
        }
        if rename(building + "/program", binary) != 0 && !Files.exists(binary) {
            throw Failure(message: "cannot store the compiled program in \(directory)", status: 1)
        }
        return binary
    }

    /// swiftc's diagnostics about the user's file (`FILE:LINE:COL: error: …`);
    /// the excerpts it prints are of the rewritten text and are left out.
    static func compilerDiagnostics(_ text: String, display: String) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for line in text.split(separator: "\n") {
            guard line.hasPrefix(display + ":") else { continue }
            let rest = line.dropFirst(display.count + 1)
            let parts = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let lineNumber = Int(parts[0]), let column = Int(parts[1]) else { continue }
            let severityText = parts[2].trimmingSpaces
            let severity: Diagnostic.Severity
            switch severityText {
            case "error": severity = .error
            case "warning": severity = .warning
            case "note": severity = .note
            default: continue
            }
            result.append(
                Diagnostic(
                    severity, String(parts[3].trimmingSpaces),
                    at: KVOScript.SourceLocation(line: lineNumber, column: column)))
        }
        return result
    }

    // MARK: Files

    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw Failure(
                    message: "cannot create \(current): \(String(cString: strerror(errno)))",
                    status: ExitStatus.failure)
            }
        }
    }

    static func removeTree(_ path: String) {
        _ = ChildProcess.run("rm", ["-rf", path])
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(cString: buffer) + "/" + path
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}

/// 64-bit FNV-1a: a cache key, not a security measure.
struct FNV1a {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 {
            state ^= UInt64(byte)
            state = state &* 0x100_0000_01b3
        }
        state ^= 0xff
        state = state &* 0x100_0000_01b3
    }
    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
