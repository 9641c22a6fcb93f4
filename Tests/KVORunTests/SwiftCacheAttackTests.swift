import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun

#if canImport(Glibc)
import Glibc
#endif

/// Issue 41: the compiled route's cache and toolchain under attack (SPEC
/// §11.0), with real processes, real files and real signals. Each test has
/// a cache of its own whose runtime is the shared cache's (a symlink to it),
/// so that nothing builds the runtime again and the test's programs are the
/// only ones in its `programs/`.
@Suite(
    .serialized,
    .disabled(
        if: ProcessInfo.processInfo.environment["KVO_CHECKED"] != nil,
        "the Swift route's cache; the same in both lanes, run by make test"))
struct SwiftCacheAttackTests {
    static let program = """
        import Foundation
        class Account: NSObject { @objc dynamic var balance = 0.0 }
        let acct = Account()
        let token = acct.observe(\\.balance, options: [.new]) { _, change in print(change.newValue ?? 0) }
        acct.balance = 2
        """

    /// A folder with a cache of its own (`XDG_CACHE_HOME`) sharing the
    /// runtime the default cache holds (built there first when missing).
    final class PrivateCache {
        let folder: Folder
        let cache: URL
        let runtime: String
        var environment: [String: String] { ["XDG_CACHE_HOME": folder.url.appendingPathComponent("xdg").path] }

        init() throws {
            folder = try Folder()
            let shared = try RuntimeCache.runtimeDirectory(
                swiftc: try Toolchain.find(nil), cache: RuntimeCache.cacheRoot())
            cache = folder.url.appendingPathComponent("xdg/kvo-run")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            runtime = cache.appendingPathComponent(Files.baseName(shared)).path
            try FileManager.default.createSymbolicLink(atPath: runtime, withDestinationPath: shared)
        }

        /// The one compiled program's folder, `programs/KEY`.
        func programFolder() throws -> URL {
            let programs = cache.appendingPathComponent("programs")
            let keys = try FileManager.default.contentsOfDirectory(atPath: programs.path)
            try #require(keys.count == 1, "\(keys)")
            return programs.appendingPathComponent(keys[0])
        }

        /// Runs kvo-run on `arguments` from a shell that first runs
        /// `prepare` with `$$`, the pid kvo-run then has (`exec`).
        func runAfter(_ prepare: String, _ arguments: [String]) throws -> CLI.Result {
            let binary = try #require(CLI.binary?.path)
            return try CLI.run(
                ["-c", prepare + " && exec \"$0\" \"$@\"", binary] + arguments, executable: "/bin/sh",
                environment: environment)
        }
    }

    /// A symlink where the run's build folder would be (the old
    /// `building-PID`) is never followed: the folder it points to keeps its
    /// files, and the program is compiled and runs.
    @Test func aSymlinkAtTheBuildFolderIsNeverFollowed() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        let first = try CLI.run([file], environment: setup.environment)
        #expect(first.status == 0 && first.out.hasSuffix("2.0\n"), "\(first)")
        let entry = try setup.programFolder()
        try FileManager.default.removeItem(at: entry.appendingPathComponent("program"))
        let precious = try setup.folder.write("victim/precious.txt", "keep me\n")
        let victim = setup.folder.url.appendingPathComponent("victim").path
        let result = try setup.runAfter("ln -s \(victim) \(entry.path)/building-$$", [file])
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        #expect((try? String(contentsOfFile: precious, encoding: .utf8)) == "keep me\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["precious.txt"])
    }

    /// Two runs with one pid (containers sharing a cache volume): a build
    /// folder of another run's, named as this run's pid would have named
    /// it, is left as it is.
    @Test func anotherRunsBuildFolderWithTheSamePidIsLeftAlone() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        #expect(try CLI.run([file], environment: setup.environment).status == 0)
        let entry = try setup.programFolder()
        try FileManager.default.removeItem(at: entry.appendingPathComponent("program"))
        let result = try setup.runAfter(
            "mkdir \(entry.path)/building-$$ && echo other > \(entry.path)/building-$$/main.swift"
                + " && echo \(entry.path)/building-$$ > \(setup.folder.url.path)/other", [file])
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        let other = try setup.folder.read("other").trimmingCharacters(in: .newlines)
        #expect((try? String(contentsOfFile: other + "/main.swift", encoding: .utf8)) == "other\n")
    }
}
