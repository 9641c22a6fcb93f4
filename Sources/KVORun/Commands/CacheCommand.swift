import ArgumentParser
import KVOScript

#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run cache [list|clean] [--all]`: what the cache of compiled Swift
/// programs holds, and removing what this kvo-run does not use
/// (CacheContents says what is kept and pruned on its own).
public struct CacheCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clean the cache of compiled Swift programs.",
        discussion: """
            The cache is $XDG_CACHE_HOME/kvo-run, else ~/.cache/kvo-run: the Swift runtime and \
            rewriter kvo-run builds once per toolchain (about 80 MB each) and each compiled \
            program (about 50 KB). kvo-run prunes it as it goes: after building a new runtime, the \
            runtimes past the three most recently used that no run used for a day; once a day, \
            runtimes unused for 7 days, programs unused for 30 days and the least recently used \
            past 2000.

            Examples:
              kvo-run cache              what it holds, and its size
              kvo-run cache clean        keep only what this kvo-run uses with this toolchain
              kvo-run cache clean --all  remove the whole cache
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case list, clean
    }

    @Argument(help: "list (the default) or clean.")
    var action: Action = .list

    @Flag(help: "With clean: remove the whole cache, this kvo-run's runtime too.")
    var all = false

    @Option(help: "The Swift compiler whose runtime clean keeps (default: KVO_SWIFTC, else swiftc on PATH).")
    var swiftc: String?

    public func validate() throws {
        if all && action != .clean { throw ValidationError("--all goes with clean: 'kvo-run cache clean --all'") }
    }

    public func run() throws {
        let root = RuntimeCache.cacheRoot()
        guard !root.isEmpty else {
            Runner.stderr(
                "kvo-run: there is no cache: set XDG_CACHE_HOME (or HOME) to an absolute folder of your own\n")
            throw ExitCode(ExitStatus.failure)
        }
        guard Files.isDirectory(root) else {
            Runner.stdout("kvo-run's cache \(root) is empty: no Swift program has run yet\n")
            return
        }
        let contents = CacheContents(root: root)
        let current = currentRuntime(root)
        switch action {
        case .list: list(contents, current: current)
        case .clean: try clean(contents, current: current)
        }
    }

    /// This kvo-run's runtime folder with the chosen toolchain, when both
    /// are found.
    private func currentRuntime(_ root: String) -> String? {
        guard let sources = RuntimeCache.runtimeSources(), let compiler = try? Toolchain.find(swiftc) else {
            return nil
        }
        return try? RuntimeCache.runtimeDirectory(sources: sources, swiftc: compiler, cache: root)
    }

    private func list(_ contents: CacheContents, current: String?) {
        let runtimes = contents.runtimes().sorted { $0.lastUsed > $1.lastUsed }
        let programs = contents.programs()
        let size = CacheContents.describe(bytes:)
        var lines = ["kvo-run's cache: \(contents.root) (\(size(contents.totalBytes())))"]
        if let current, let mine = runtimes.first(where: { $0.path == current }) {
            lines.append(
                "  this kvo-run's runtime: \(Files.baseName(current)), \(size(mine.bytes)), used \(Self.date(mine.lastUsed))"
            )
        } else {
            lines.append("  this kvo-run's runtime: not built yet (the next Swift program builds it)")
        }
        let others = runtimes.filter { $0.path != current }
        if let latest = others.first {
            let total = others.reduce(Int64(0)) { $0 + $1.bytes }
            lines.append(
                "  other runtimes: \(others.count), \(size(total)), last used \(Self.date(latest.lastUsed))")
        }
        let currentName = current.map(Files.baseName)
        let mine = programs.filter { $0.runtime != nil && $0.runtime == currentName }
        let total = programs.reduce(Int64(0)) { $0 + $1.bytes }
        lines.append(
            "  compiled programs: \(programs.count), \(size(total)) (\(mine.count) for this kvo-run's runtime)")
        lines.append("'kvo-run cache clean' keeps only what this kvo-run uses; see 'kvo-run cache --help'.")
        Runner.stdout(lines.joined(separator: "\n") + "\n")
    }

    private func clean(_ contents: CacheContents, current: String?) throws {
        if all {
            let bytes = contents.totalBytes()
            CacheContents.removeEntry(contents.root)
            Runner.stdout("removed kvo-run's cache \(contents.root) (\(CacheContents.describe(bytes: bytes)))\n")
            return
        }
        if current == nil {
            Runner.stderr(
                "kvo-run: no Swift toolchain or runtime sources found, so every runtime is removed; the next Swift program builds one again\n"
            )
        }
        let removed = contents.clean(keeping: current, programsOf: ProgramCache.executableIdentity)
        Runner.stdout(
            "removed \(removed.runtimes) runtime\(removed.runtimes == 1 ? "" : "s") and \(removed.programs) compiled program\(removed.programs == 1 ? "" : "s") (\(CacheContents.describe(bytes: removed.bytes))) from \(contents.root)\n"
        )
    }

    /// "2026-11-28 23:54", local time.
    static func date(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
    }
}
