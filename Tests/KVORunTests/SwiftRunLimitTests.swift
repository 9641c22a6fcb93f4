import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun

#if canImport(Glibc)
import Glibc
#endif

/// Issue 41, item 8: `--timeout S` and `kvo-run test`'s limit per Swift
/// scenario bound the whole run of a Swift program (SPEC §11.0), not only
/// the compiled program: a rewriter or a compiler that hangs is stopped at
/// the same deadline, with everything it started, and leaves nothing in the
/// cache; the one-time runtime build has a bound of its own. The hanging
/// steps are shell scripts that note their process group and sleep in a
/// child of theirs (the grandchild a real compiler's frontend would be).
@Suite(
    .serialized,
    .disabled(
        if: ProcessInfo.processInfo.environment["KVO_CHECKED"] != nil,
        "the Swift route's limits; the same in both lanes, run by make test"))
struct SwiftRunLimitTests {
    /// A program whose `import Foundation` is on line 2, where the errors are said.
    static let program = "// limits\nimport Foundation\nprint(\"ran\")\n"

    /// A script that notes its process group (it is started as a group's
    /// leader, or in kvo-run's) in `groups`, then sleeps in a child.
    /// A fresh folder holding a hanging compiler at `path` (executable) and
    /// the path of the file it notes its process groups in.
    static func hangingCompiler(
        at path: String = "bin/swiftc", versionAnswer: Bool
    ) throws -> (
        scratch: Folder, groups: String, swiftc: String
    ) {
        let scratch = try Folder()
        let groups = scratch.url.appendingPathComponent("groups").path
        let swiftc = try scratch.write(path, sleeper(noting: groups, versionAnswer: versionAnswer))
        chmod(swiftc, 0o755)
        return (scratch, groups, swiftc)
    }

    static func sleeper(noting groups: String, versionAnswer: Bool) -> String {
        "#!/bin/sh\n"
            + (versionAnswer ? "if [ \"$1\" = --version ]; then echo 'fake swiftc 1.0'; exit 0; fi\n" : "")
            + "echo $$ >> \(groups)\nsleep 60\nexit 1\n"
    }

    /// A cache of its own (`XDG_CACHE_HOME`) whose runtime for `swiftc` is
    /// the shared runtime's files (links to them, built first when missing)
    /// with `replacing` files of the test's own (name → text, executable).
    final class PrivateRuntime {
        let folder: Folder
        let cache: String
        let runtime: String
        var environment: [String: String] { ["XDG_CACHE_HOME": folder.url.appendingPathComponent("xdg").path] }

        init(swiftc: String? = nil, replacing: [String: String]) throws {
            folder = try Folder()
            let real = try Toolchain.find(nil)
            let shared = try RuntimeCache.runtimeDirectory(swiftc: real, cache: RuntimeCache.cacheRoot())
            cache = folder.url.appendingPathComponent("xdg/kvo-run").path
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            // Named as kvo-run will look for it with `swiftc`: its version is
            // part of the key (a fake compiler answers `--version` at once).
            let sources = try #require(RuntimeCache.runtimeSources())
            let key = RuntimeCache.runtimeKey(
                sources: sources, files: RuntimeCache.allSourceFiles(sources),
                toolchain: try Toolchain.version(swiftc ?? real, cache: cache), cache: cache)
            runtime = cache + "/runtime-" + key
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            // Without `sizes`: kvo-run records what it finds (the replaced files too).
            for name in try FileManager.default.contentsOfDirectory(atPath: shared) where name != RuntimeCache.sizesName
            {
                if replacing[name] == nil {
                    try FileManager.default.createSymbolicLink(
                        atPath: runtime + "/" + name, withDestinationPath: shared + "/" + name)
                }
            }
            for (name, text) in replacing {
                try text.write(toFile: runtime + "/" + name, atomically: true, encoding: .utf8)
                chmod(runtime + "/" + name, 0o755)
            }
        }

        /// Every path under the cache.
        func entries() -> [String] {
            (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String]) ?? []
        }
    }

    /// The processes alive (not zombies) in the process groups listed in
    /// `file`, one number a line; empty once they have ended (within a few seconds).
    static func survivors(ofGroupsIn file: String) -> [String] {
        let groups = Set(
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        var alive: [String] = []
        for _ in 0..<50 {
            alive = []
            for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                // After "pid (name) ": state, parent, group.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 2, fields[0] != "Z", groups.contains(String(fields[2])) {
                    alive.append("\(pid) \(stat.prefix(while: { $0 != ")" })))")
                }
            }
            if alive.isEmpty { return [] }
            usleep(100_000)
        }
        return alive
    }

    /// A compiler that hangs while compiling: `--timeout 2` stops it and what
    /// it started within seconds, says which step ran too long at `import
    /// Foundation`'s line, status 1, and leaves no build folder nor program.
    @Test func aHangingCompilerIsStoppedAtTheTimeout() throws {
        let (scratch, groups, swiftc) = try Self.hangingCompiler(versionAnswer: true)
        // The folder (and the compiler in it) lives to the end of the test.
        defer { withExtendedLifetime(scratch) {} }
        // "driver": the driver compiles (no plan of jobs), so the fake compiler is called.
        let setup = try PrivateRuntime(swiftc: swiftc, replacing: [CompileJobs.fileName: "driver\n"])
        let file = try setup.folder.write("p.swift", Self.program)
        let started = Date()
        let result = try CLI.run(
            ["--swiftc", swiftc, "--timeout", "2", file], timeout: 45, environment: setup.environment)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains(
                "p.swift:2:1: error: compiling the program took longer than 2 s and was stopped (--timeout); nothing ran: give it more time with a larger --timeout\nimport Foundation\n^\n"
            ), "\(result)")
        #expect(!result.out.contains("ran"), "\(result)")
        #expect(seconds < 15, "took \(seconds) s")
        #expect(FileManager.default.fileExists(atPath: groups), "the fake compiler never ran")
        #expect(Self.survivors(ofGroupsIn: groups).isEmpty, "\(Self.survivors(ofGroupsIn: groups))")
        let left = setup.entries().filter { $0.contains("building-") || $0.hasSuffix("/program") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A compiler that hangs when asked its version (the first step, part
    /// of the runtime's key): stopped at the deadline too, nothing remembered.
    @Test func aCompilerThatHangsOnItsVersionIsStopped() throws {
        let (scratch, groups, swiftc) = try Self.hangingCompiler(versionAnswer: false)
        let file = try scratch.write("p.swift", Self.program)
        let environment = ["XDG_CACHE_HOME": scratch.url.appendingPathComponent("xdg").path]
        let started = Date()
        let result = try CLI.run(["--swiftc", swiftc, "--timeout", "2", file], timeout: 45, environment: environment)
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains(
                "p.swift:2:1: error: asking the Swift compiler its version (\(swiftc) --version) took longer than 2 s and was stopped (--timeout)"
            ), "\(result)")
        #expect(Self.survivors(ofGroupsIn: groups).isEmpty, "\(Self.survivors(ofGroupsIn: groups))")
        let toolchains = scratch.url.appendingPathComponent("xdg/kvo-run/toolchains").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: toolchains)) ?? []).isEmpty)
    }

    /// A rewriter that never answers: stopped at the deadline with its group.
    @Test func aHangingRewriterIsStoppedAtTheTimeout() throws {
        let scratch = try Folder()
        let groups = scratch.url.appendingPathComponent("groups").path
        let setup = try PrivateRuntime(
            replacing: [RuntimeCache.rewriterName: Self.sleeper(noting: groups, versionAnswer: false)])
        let file = try setup.folder.write("p.swift", Self.program)
        let started = Date()
        let result = try CLI.run(["--timeout", "2", file], timeout: 45, environment: setup.environment)
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains(
                "p.swift:2:1: error: rewriting the program took longer than 2 s and was stopped (--timeout); nothing ran: give it more time with a larger --timeout\n"
            ), "\(result)")
        #expect(FileManager.default.fileExists(atPath: groups), "the fake rewriter never ran")
        #expect(Self.survivors(ofGroupsIn: groups).isEmpty, "\(Self.survivors(ofGroupsIn: groups))")
        #expect(!setup.entries().contains { $0.hasPrefix("programs/") && $0.hasSuffix("/program") })
    }

    /// The real rewriter on 24 nested brackets (swift-syntax's parser takes
    /// minutes: each level doubles its time, 10 s at 20 here): `--timeout 3`
    /// stops it, and no rewriter of this run is left running.
    @Test func aProgramTooSlowToRewriteIsStopped() throws {
        let setup = try PrivateRuntime(replacing: [:])
        let depth = 24
        let file = try setup.folder.write(
            "deep.swift",
            "import Foundation\nlet x = " + String(repeating: "[", count: depth) + "1"
                + String(repeating: "]", count: depth) + "\nprint(x)\n")
        let started = Date()
        let result = try CLI.run(["--timeout", "3", file], timeout: 45, environment: setup.environment)
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.contains("deep.swift:1:1: error: rewriting the program took longer than 3 s and was stopped"),
            "\(result)")
        // The helper runs from this test's runtime folder: none is left.
        usleep(500_000)
        let helpers = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { pid in
            guard Int(pid) != nil,
                let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
            else { return false }
            return command.hasPrefix(setup.runtime)
        }
        #expect(helpers.isEmpty, "\(helpers)")
    }

    /// `kvo-run test` over a Swift scenario whose compiler hangs: the
    /// scenario fails after its 20 s, said as such, and the run ends.
    @Test func kvoRunTestFailsAScenarioWhoseCompilerHangs() throws {
        let (scratch, groups, swiftc) = try Self.hangingCompiler(versionAnswer: true)
        // The folder (and the compiler in it) lives to the end of the test.
        defer { withExtendedLifetime(scratch) {} }
        let setup = try PrivateRuntime(swiftc: swiftc, replacing: [CompileJobs.fileName: "driver\n"])
        let scenario = try setup.folder.write("goldens/hangs.kvo", Self.program)
        try setup.folder.write("goldens/hangs.out", "ran\n")
        var environment = setup.environment
        environment["KVO_SWIFTC"] = swiftc
        let started = Date()
        let result = try CLI.run(["test", "--no-color", scenario], timeout: 90, environment: environment)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.out.contains(
                "hangs.kvo:2:1: error: compiling the program took longer than 20 s and was stopped (kvo-run test gives each Swift scenario 20 s); nothing ran: run the file alone with kvo-run to see what takes so long"
            ), "\(result)")
        #expect(result.out.hasSuffix("0 passed, 1 failed\n"), "\(result)")
        #expect(seconds < 45, "took \(seconds) s")
        #expect(Self.survivors(ofGroupsIn: groups).isEmpty, "\(Self.survivors(ofGroupsIn: groups))")
    }

    /// The one-time build has its own bound (`RuntimeCache.buildLimit`, 15
    /// minutes; 2 s here): a compiler that hangs is stopped with what it
    /// started, nothing is kept, and the same kvo-run does not wait again.
    @Test func aHangingRuntimeBuildIsStoppedAtItsOwnLimit() throws {
        let (scratch, groups, swiftc) = try Self.hangingCompiler(at: "toolchain/usr/bin/swiftc", versionAnswer: true)
        for module in RuntimeCache.hostModuleNames {
            try scratch.write("toolchain/usr/lib/swift/host/\(module).swiftmodule", "")
            try scratch.write("toolchain/usr/lib/swift/host/lib\(module).so", "")
        }
        let cache = scratch.url.appendingPathComponent("cache").path
        func build() -> (message: String, seconds: Double) {
            let started = Date()
            do {
                _ = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: cache, buildLimit: 2)
                return ("built", Date().timeIntervalSince(started))
            } catch let failure as SwiftProgram.Failure {
                return (failure.message, Date().timeIntervalSince(started))
            } catch {
                return ("\(error)", Date().timeIntervalSince(started))
            }
        }
        let first = build()
        #expect(
            first.message.hasPrefix(
                "building the Swift runtime with \(swiftc) took longer than 2 s and was stopped (the one-time build's own limit; it usually takes about a minute); nothing was kept"
            ), "\(first.message)")
        #expect(first.seconds < 15, "took \(first.seconds) s")
        // The step in front and the rewriter's compile behind it, each a group.
        let started = ((try? String(contentsOfFile: groups, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(started.count == 2, "\(started)")
        #expect(Self.survivors(ofGroupsIn: groups).isEmpty, "\(Self.survivors(ofGroupsIn: groups))")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
        #expect(!left.contains { $0.hasPrefix("runtime-") }, "\(left)")
        let again = build()
        #expect(again.message == first.message)
        #expect(again.seconds < 1, "waited again: \(again.seconds) s")
    }
}
