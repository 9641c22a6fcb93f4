import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun

/// The cache of compiled Swift programs is pruned (issue 42, item 7): by
/// kvo-run as it goes (`CacheContents`), and on demand with `kvo-run cache
/// clean`; `kvo-run cache` says what it holds.
@Suite struct CacheCommandTests {
    /// A cache folder of fake entries: each runtime or program a folder with
    /// a file in it, last used `daysAgo` days ago.
    /// `root` is `base/kvo-run`: the cache kvo-run uses with `XDG_CACHE_HOME=base`.
    final class FakeCache {
        let base: String
        let root: String
        let now = Int(time(nil))

        init() throws {
            base =
                FileManager.default.temporaryDirectory.appendingPathComponent("kvo-cache-\(UUID().uuidString)")
                .path
            root = base + "/kvo-run"
            try FileManager.default.createDirectory(atPath: root + "/programs", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        func age(_ path: String, daysAgo: Double) {
            let when = Double(now) - daysAgo * 86_400
            var times = [
                timespec(tv_sec: Int(when), tv_nsec: 0), timespec(tv_sec: Int(when), tv_nsec: 0),
            ]
            _ = utimensat(AT_FDCWD, path, &times, 0)
        }

        @discardableResult
        func runtime(_ name: String, daysAgo: Double) throws -> String {
            let path = root + "/runtime-" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(count: 1000).write(to: URL(fileURLWithPath: path + "/libKVOFoundation.so"))
            age(path, daysAgo: daysAgo)
            return path
        }

        @discardableResult
        func program(_ name: String, runtime: String?, identity: String = "someone", daysAgo: Double) throws -> String {
            let path = root + "/programs/" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(count: 100).write(to: URL(fileURLWithPath: path + "/program"))
            if let runtime {
                try CacheContents.record(runtime: "runtime-" + runtime, identity: identity)
                    .write(toFile: path + "/" + CacheContents.runtimeRecord, atomically: true, encoding: .utf8)
            }
            age(path, daysAgo: daysAgo)
            return path
        }

        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + relative) }
    }

    @Test func aNewRuntimeRemovesTheOldRuntimesNobodyUsesAndTheirPrograms() throws {
        let cache = try FakeCache()
        let new = try cache.runtime("new", daysAgo: 0)
        try cache.runtime("yesterday", daysAgo: 0.5)
        try cache.runtime("lastweek", daysAgo: 6)
        try cache.runtime("lastmonth", daysAgo: 30)
        // Used an hour ago: another checkout running now is never cut short.
        try cache.runtime("otherCheckout", daysAgo: 0.04)
        try cache.program("p1", runtime: "lastmonth", daysAgo: 0)
        try cache.program("p2", runtime: "new", daysAgo: 0)
        try cache.program("p3", runtime: nil, daysAgo: 0)
        let freed = CacheContents(root: cache.root).pruneAfterBuilding(new, now: cache.now)
        #expect(freed > 0)
        #expect(
            cache.exists("runtime-new") && cache.exists("runtime-yesterday") && cache.exists("runtime-otherCheckout"))
        // Past the three most recent and unused for a day.
        #expect(!cache.exists("runtime-lastweek") && !cache.exists("runtime-lastmonth"))
        #expect(!cache.exists("programs/p1"))
        #expect(cache.exists("programs/p2") && cache.exists("programs/p3"))
    }

    @Test func onceADayOldProgramsAndRuntimesGo() throws {
        let cache = try FakeCache()
        try cache.runtime("current", daysAgo: 0)
        try cache.runtime("stale", daysAgo: 8)
        try cache.runtime("recent", daysAgo: 2)
        try cache.program("fresh", runtime: "current", daysAgo: 1)
        try cache.program("old", runtime: "current", daysAgo: 31)
        try cache.program("orphan", runtime: "gone", daysAgo: 0)
        try cache.program("unrecorded", runtime: nil, daysAgo: 0)
        let building = cache.root + "/programs/fresh/building-abc123"
        try FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        cache.age(building, daysAgo: 2)
        let contents = CacheContents(root: cache.root)
        contents.pruneDaily(now: cache.now)
        #expect(cache.exists("runtime-current") && cache.exists("runtime-recent"))
        #expect(!cache.exists("runtime-stale"))
        #expect(cache.exists("programs/fresh") && cache.exists("programs/unrecorded"))
        #expect(!cache.exists("programs/old") && !cache.exists("programs/orphan"))
        #expect(!cache.exists("programs/fresh/building-abc123"))
        // Not again the same day.
        try cache.program("old2", runtime: "current", daysAgo: 40)
        contents.pruneDaily(now: cache.now)
        #expect(cache.exists("programs/old2"))
    }

    @Test func theLeastRecentlyUsedProgramsPastTheLimitGo() throws {
        let cache = try FakeCache()
        try cache.runtime("current", daysAgo: 0)
        for index in 0...CacheContents.keptPrograms {
            try cache.program("p\(index)", runtime: "current", daysAgo: Double(index) / 1000)
        }
        CacheContents(root: cache.root).pruneDaily(now: cache.now)
        #expect(CacheContents(root: cache.root).programs().count == CacheContents.keptPrograms)
        #expect(cache.exists("programs/p0") && !cache.exists("programs/p\(CacheContents.keptPrograms)"))
    }

    @Test func removingAnEntryNeverFollowsASymlink() throws {
        let cache = try FakeCache()
        let elsewhere = try FakeCache()
        try elsewhere.program("precious", runtime: nil, daysAgo: 0)
        let entry = try cache.program("entry", runtime: nil, daysAgo: 0)
        try FileManager.default.createSymbolicLink(
            atPath: entry + "/link", withDestinationPath: elsewhere.root + "/programs/precious")
        CacheContents.removeEntry(entry)
        #expect(!cache.exists("programs/entry"))
        #expect(elsewhere.exists("programs/precious/program"))
    }

    /// The command line: `kvo-run cache`, `cache clean`, `cache clean --all`.
    @Test func listAndCleanFromTheCommandLine() throws {
        let cache = try FakeCache()
        let folder = try Folder()
        let environment = ["XDG_CACHE_HOME": cache.base]
        // The folder name this kvo-run's runtime has in that cache.
        let swiftc = try Toolchain.find(nil)
        let sources = try #require(RuntimeCache.runtimeSources())
        let current = try RuntimeCache.runtimeDirectory(sources: sources, swiftc: swiftc, cache: cache.root)
        let name = String(Files.baseName(current).dropFirst("runtime-".count))
        let binary = try #require(CLI.binary)
        let identity = ProgramCache.identity(ofExecutable: binary.path)
        try cache.runtime(name, daysAgo: 0)
        try cache.runtime("old", daysAgo: 0)
        try cache.program("mine", runtime: name, identity: identity, daysAgo: 0)
        try cache.program("anotherBuild", runtime: name, identity: "other", daysAgo: 0)
        try cache.program("oldRuntime", runtime: "old", identity: identity, daysAgo: 0)
        let list = try folder.run(["cache"], environment: environment)
        #expect(list.status == 0, "\(list)")
        #expect(list.out.hasPrefix("kvo-run's cache: \(cache.root) ("), "\(list)")
        #expect(list.out.contains("  this kvo-run's runtime: runtime-\(name), "), "\(list)")
        #expect(list.out.contains("  other runtimes: 1, "), "\(list)")
        #expect(list.out.contains("  compiled programs: 3, "), "\(list)")
        #expect(list.out.contains("(2 for this kvo-run's runtime)"), "\(list)")
        let clean = try folder.run(["cache", "clean"], environment: environment)
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.out.hasPrefix("removed 1 runtime and 2 compiled programs ("), "\(clean)")
        #expect(cache.exists("runtime-\(name)") && cache.exists("programs/mine"))
        #expect(!cache.exists("runtime-old"))
        #expect(!cache.exists("programs/anotherBuild") && !cache.exists("programs/oldRuntime"))
        let misuse = try folder.run(["cache", "--all"], environment: environment)
        #expect(misuse.status == 64, "\(misuse)")
        let all = try folder.run(["cache", "clean", "--all"], environment: environment)
        #expect(all.status == 0, "\(all)")
        #expect(!FileManager.default.fileExists(atPath: cache.root))
        let empty = try folder.run(["cache"], environment: environment)
        #expect(empty.out == "kvo-run's cache \(cache.root) is empty: no Swift program has run yet\n", "\(empty)")
    }
}
