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

    /// The test runner's environment less `removed`, with `extra` over it.
    static func environment(without removed: [String], _ extra: [String: String] = [:]) -> [String: String] {
        var environment = _KVOTestSupport.ChildProcess.quietEnvironment(extra)
        for name in removed { environment[name] = nil }
        return environment
    }

    /// Runs kvo-run with exactly `environment`.
    static func run(_ arguments: [String], environment: [String: String], in folder: Folder) throws -> CLI.Result {
        let binary = try #require(CLI.binary)
        let outcome = try _KVOTestSupport.ChildProcess.run(
            binary, arguments, in: folder.url, environment: environment, timeout: 300)
        return CLI.Result(status: outcome.status, crashed: outcome.signalled, out: outcome.out, err: outcome.err)
    }

    /// Without HOME (and XDG_CACHE_HOME) the cache is the user's home's
    /// from the password database, never `.cache/kvo-run` in the shared
    /// temporary folder.
    @Test func withoutHomeTheCacheIsNeverInTheSharedTemporaryFolder() throws {
        let folder = try Folder()
        let file = try folder.write("p.swift", Self.program)
        let shared = "/tmp/.cache/kvo-run"
        let existed = FileManager.default.fileExists(atPath: shared)
        let result = try Self.run(
            [file], environment: Self.environment(without: ["HOME", "XDG_CACHE_HOME"]), in: folder)
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        if !existed { #expect(!FileManager.default.fileExists(atPath: shared)) }

        let saved = (ProcessInfo.processInfo.environment["HOME"], ProcessInfo.processInfo.environment["XDG_CACHE_HOME"])
        defer {
            if let home = saved.0 { setenv("HOME", home, 1) }
            if let xdg = saved.1 { setenv("XDG_CACHE_HOME", xdg, 1) } else { unsetenv("XDG_CACHE_HOME") }
        }
        unsetenv("HOME")
        unsetenv("XDG_CACHE_HOME")
        let root = RuntimeCache.cacheRoot()
        #expect(!root.hasPrefix("/tmp") && root.hasSuffix("/.cache/kvo-run"), "\(root)")
        // A relative XDG_CACHE_HOME is ignored (XDG): HOME's cache instead.
        setenv("HOME", "/home/someone", 1)
        setenv("XDG_CACHE_HOME", "relative/cache", 1)
        #expect(RuntimeCache.cacheRoot() == "/home/someone/.cache/kvo-run")
        setenv("XDG_CACHE_HOME", "/absolute/cache", 1)
        #expect(RuntimeCache.cacheRoot() == "/absolute/cache/kvo-run")
    }

    /// `KVO_RUNTIME_SOURCES=` (empty) is unset: the sources are found as
    /// without it, not looked for in the current folder.
    @Test func anEmptyRuntimeSourcesIsUnset() throws {
        let found = RuntimeCache.runtimeSources()
        setenv("KVO_RUNTIME_SOURCES", "", 1)
        defer { unsetenv("KVO_RUNTIME_SOURCES") }
        #expect(RuntimeCache.runtimeSources() == found)
        #expect(RuntimeCache.runtimeSources()?.isEmpty == false)
    }

    /// A cache others can write, or another user's, is refused with what
    /// to set; nothing is compiled into it.
    @Test(.enabled(if: geteuid() == 0, "gives the cache to another user, which needs root"))
    func aCacheOthersCanWriteIsRefused() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        chmod(setup.cache.path, 0o777)
        let open = try CLI.run([file], environment: setup.environment)
        #expect(open.status == 1, "\(open)")
        #expect(
            open.err.contains(
                "kvo-run's cache \(setup.cache.path) can be written by other users, so a program compiled there could be replaced; set XDG_CACHE_HOME (or HOME) to a folder of your own, or make it yours alone (chmod go-w)"
            ), "\(open)")
        #expect(!FileManager.default.fileExists(atPath: setup.cache.appendingPathComponent("programs").path))
        chmod(setup.cache.path, 0o755)
        chown(setup.cache.path, 65534, 65534)
        let foreign = try CLI.run([file], environment: setup.environment)
        #expect(foreign.status == 1 && foreign.err.contains("belongs to another user"), "\(foreign)")
        chown(setup.cache.path, geteuid(), getegid())
        // The folder holding it, writable by everyone (not sticky): refused too.
        let holder = setup.cache.deletingLastPathComponent().path
        chmod(holder, 0o777)
        let shared = try CLI.run([file], environment: setup.environment)
        #expect(
            shared.status == 1
                && shared.err.contains(
                    "kvo-run's cache would be in \(holder), which another user owns or everyone can write; set XDG_CACHE_HOME (or HOME)"
                ), "\(shared)")
        chmod(holder, 0o755)
        let mine = try CLI.run([file], environment: setup.environment)
        #expect(mine.status == 0 && mine.out.hasSuffix("2.0\n"), "\(mine)")
    }

    /// A read-only cache (a read-only volume) is not refused: the program
    /// is compiled in a private temporary folder, removed at the end, with
    /// the cache's runtime.
    @Test(.enabled(if: geteuid() == 0, "mounts a read-only tmpfs, which needs root"))
    func aReadOnlyCacheFallsBackToAPrivateTemporaryFolder() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        let volume = setup.folder.url.appendingPathComponent("ro").path
        let temporary = setup.folder.url.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        let shell = URL(fileURLWithPath: "/bin/sh")
        let mount = try _KVOTestSupport.ChildProcess.run(
            shell,
            [
                "-c",
                "mount -t tmpfs tmpfs \(volume) && mkdir -p \(volume)/kvo-run && ln -s "
                    + "\(try FileManager.default.destinationOfSymbolicLink(atPath: setup.runtime)) \(volume)/kvo-run/"
                    + " && mount -o remount,ro \(volume)",
            ], in: nil, timeout: 30)
        try #require(mount.status == 0, "mounting a read-only tmpfs: \(mount.err)")
        defer { _ = try? _KVOTestSupport.ChildProcess.run(shell, ["-c", "umount \(volume)"], in: nil, timeout: 30) }
        let result = try CLI.run([file], environment: ["XDG_CACHE_HOME": volume, "TMPDIR": temporary])
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        // swiftc's own temporary folders aside, kvo-run's private folder is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(!left.contains { $0.hasPrefix("kvo-run.") }, "removed at the end: \(left)")
    }

    /// Whether process `pid` has ended (gone, or a zombie nobody collected yet)
    /// within `seconds`.
    static func ended(_ pid: pid_t, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst(2).first == "Z" { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    /// SIGKILL or SIGTERM to kvo-run ends the program it runs (it dies with
    /// kvo-run: PR_SET_PDEATHSIG), and a SIGTERM is passed on, kvo-run then
    /// ending of it.
    @Test func theProgramDiesWithKvoRun() throws {
        let folder = try Folder()
        let file = try folder.write(
            "sleeper.swift", "import Foundation\nprint(getpid())\nfflush(stdout)\nsleep(1000)\n")
        let binary = try #require(CLI.binary)
        for sent in [SIGKILL, SIGTERM, SIGHUP] {
            let output = folder.url.appendingPathComponent("out-\(sent)")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = binary
            process.arguments = [file]
            process.environment = _KVOTestSupport.ChildProcess.quietEnvironment()
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            var program: pid_t?
            let deadline = Date().addingTimeInterval(240)
            while program == nil && Date() < deadline && process.isRunning {
                program = (try? String(contentsOf: output, encoding: .utf8))
                    .flatMap { $0.hasSuffix("\n") ? pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) : nil }
                usleep(50_000)
            }
            let pid = try #require(program, "the program never started")
            defer { kill(pid, SIGKILL) }
            kill(process.processIdentifier, sent)
            process.waitUntilExit()
            #expect(Self.ended(pid, within: 10), "the program outlived kvo-run (signal \(sent))")
            if sent != SIGKILL {
                #expect(process.terminationReason == .uncaughtSignal, "signal \(sent)")
                #expect(process.terminationStatus == sent, "signal \(sent)")
            }
        }
    }

    // MARK: A damaged cache

    /// A cached program cut short (a full disk, a crash) is compiled again,
    /// not run ("Exec format error" or SIGBUS on every run).
    @Test func aTruncatedCachedProgramIsCompiledAgain() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        #expect(try CLI.run([file], environment: setup.environment).status == 0)
        let program = try setup.programFolder().appendingPathComponent("program").path
        #expect(truncate(program, 100) == 0)
        let result = try CLI.run([file], environment: setup.environment)
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        #expect(try FileManager.default.attributesOfItem(atPath: program)[.size] as? Int ?? 0 > 100)
    }

    /// A runtime library cut short is built again (about a minute), not
    /// loaded by every program.
    @Test func aTruncatedRuntimeLibraryIsBuiltAgain() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("p.swift", Self.program)
        // A copy of the shared runtime, recorded as it is, then damaged.
        let shared = try FileManager.default.destinationOfSymbolicLink(atPath: setup.runtime)
        try FileManager.default.removeItem(atPath: setup.runtime)
        try FileManager.default.copyItem(atPath: shared, toPath: setup.runtime)
        #expect(RuntimeCache.installedState(setup.runtime) == .intact)
        let library = setup.runtime + "/libKVOFoundation.so"
        #expect(truncate(library, 4096) == 0)
        #expect(RuntimeCache.installedState(setup.runtime) == .damaged)
        let result = try CLI.run([file], environment: setup.environment)
        #expect(result.status == 0 && result.out.hasSuffix("2.0\n"), "\(result)")
        #expect(RuntimeCache.installedState(setup.runtime) == .intact)
        #expect(try FileManager.default.attributesOfItem(atPath: library)[.size] as? Int ?? 0 > 4096)
        let left = try FileManager.default.contentsOfDirectory(atPath: setup.cache.path)
        #expect(!left.contains { $0.contains(".damaged-") || $0.contains(".building-") }, "\(left)")
    }

    // MARK: Messages that say something

    /// swiftc quotes a line cut inside a character (`10²`: one byte of
    /// `²`): its output is kept, decoded leniently, never dropped whole.
    @Test func aCompilerMessageThatIsNotUTF8IsKept() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write(
            "u.swift", "import Foundation\nclass A: NSObject { @objc dynamic var v = 0 }\nlet a = A()\na.v = 10²\n")
        let result = try CLI.run([file], environment: setup.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.err.contains("u.swift:4:9: error: "), "\(result)")
        #expect(result.err.contains("is not a valid digit in integer literal"), "\(result)")
        #expect(!result.err.contains("could not compile the program:\n\n"), "\(result)")
    }

    /// `--swiftc` naming a folder: said, with the compiler in it.
    @Test func aSwiftcThatIsAFolderIsNamed() throws {
        let folder = try Folder()
        let file = try folder.write("p.swift", Self.program)
        let toolchain = try folder.write("toolchain/usr/bin/swiftc", "#!/bin/sh\nexit 1\n")
        chmod(toolchain, 0o755)
        let root = folder.url.appendingPathComponent("toolchain").path
        let result = try CLI.run(["--swiftc", root, file])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.err.contains(
                "--swiftc (or KVO_SWIFTC) names the folder '\(root)', not a compiler; name the swiftc in it: --swiftc \(toolchain)"
            ), "\(result)")
    }

    /// Compiles `program` with the compiler `swiftc` (a real executable)
    /// against an empty runtime folder in `folder`: what was reported and
    /// thrown.
    static func compile(with swiftc: String, in folder: String) -> (reported: [String], thrown: String?) {
        let runtime = folder + "/runtime"
        let building = folder + "/building"
        try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        var reported: [String] = []
        do {
            try ProgramCompiler.compile(
                "import KVOFoundation\nprint(1)\n", in: building, files: ["p.swift"], swiftc: swiftc, runtime: runtime,
                deadline: .none
            ) { diagnostic, _ in reported.append(diagnostic.message) }
        } catch let failure as SwiftProgram.Failure {
            return (reported, failure.message)
        } catch {
            return (reported, "\(error)")
        }
        return (reported, nil)
    }

    /// A compiler that ends well and writes no program, or fails and says
    /// nothing, or crashes with its stack dump: each said in words.
    @Test func compilersThatSayNothingAreNamed() throws {
        let folder = try Folder()
        let silent = Self.compile(with: "/bin/true", in: folder.url.appendingPathComponent("true").path)
        #expect(
            silent.thrown?.hasPrefix(
                "/bin/true ended as if it had compiled the program but wrote no program; check that --swiftc or KVO_SWIFTC names a Swift compiler"
            ) == true, "\(silent)")
        let failing = Self.compile(with: "/bin/false", in: folder.url.appendingPathComponent("false").path)
        #expect(
            failing.reported.first?.hasPrefix("swiftc (/bin/false) exited with status 1 and printed nothing: ") == true,
            "\(failing)")
        let crashing = try folder.write(
            "crash/swiftc",
            "#!/bin/sh\necho 'error: compile command failed due to signal 11'\necho 'Stack dump:'\n"
                + "echo '0.\tProgram arguments: /root/.cache/kvo-run/programs/x/building-y/main.swift'\nexit 1\n")
        chmod(crashing, 0o755)
        let crashed = Self.compile(with: crashing, in: folder.url.appendingPathComponent("crashed").path)
        let said = crashed.reported.joined(separator: "\n")
        #expect(
            said.contains("crashed while compiling the program; this is a bug in swiftc, not in your program"),
            "\(said)")
        #expect(said.contains("error: compile command failed due to signal 11"), "\(said)")
        #expect(!said.contains("Program arguments") && !said.contains("/.cache/"), "\(said)")
    }

    /// A compiler that fails printing nothing on a full disk (its log could
    /// not be written): the full disk is named.
    @Test(.enabled(if: geteuid() == 0, "mounts a small tmpfs, which needs root"))
    func aFullDiskIsNamed() throws {
        let folder = try Folder()
        let volume = folder.url.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        let shell = URL(fileURLWithPath: "/bin/sh")
        let mount = try _KVOTestSupport.ChildProcess.run(
            shell,
            [
                "-c",
                "mount -t tmpfs -o size=1m tmpfs \(volume) && mkdir \(volume)/runtime \(volume)/building"
                    + " && dd if=/dev/zero of=\(volume)/filler bs=4096 count=255 2>/dev/null",
            ], in: nil, timeout: 30)
        defer { _ = try? _KVOTestSupport.ChildProcess.run(shell, ["-c", "umount \(volume)"], in: nil, timeout: 30) }
        try #require(mount.status == 0, "mounting a tmpfs: \(mount.err)")
        let full = Self.compile(with: "/bin/false", in: volume)
        #expect(full.reported.first?.contains("the disk holding \(volume)/building is full") == true, "\(full)")
    }

    // MARK: Signals

    /// `| head -1`: the program ends of SIGPIPE, a normal end in a pipeline:
    /// nothing said, status 0.
    @Test func aClosedPipeIsANormalEnd() throws {
        let setup = try PrivateCache()
        let file = try setup.folder.write("many.swift", "import Foundation\nfor i in 0..<100000 { print(i) }\n")
        let binary = try #require(CLI.binary?.path)
        let result = try CLI.run(
            ["-c", "set -o pipefail; \"$0\" \"$1\" | head -1", binary, file], executable: "/bin/bash",
            environment: setup.environment)
        #expect(result.status == 0 && result.out == "0\n" && result.err.isEmpty, "\(result)")
    }

    /// A Ctrl-C that reaches kvo-run while a compile step runs (and the
    /// step then ends well) stops the run: the program is neither linked
    /// nor run.
    @Test func aCtrlCDuringACompileStepIsNotLost() throws {
        let setup = try PrivateCache()
        // Enough functions for a compile step of a second or so.
        let functions = (0..<400).map { "func f\($0)(_ x: Int) -> Int { x &+ \($0) }\n" }.joined()
        let file = try setup.folder.write(
            "slow.swift", "import Foundation\n" + functions + "print(\"ran\", f1(1))\n")
        let binary = try #require(CLI.binary)
        let output = setup.folder.url.appendingPathComponent("out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = [file]
        process.environment = _KVOTestSupport.ChildProcess.quietEnvironment(setup.environment)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        let programs = setup.cache.appendingPathComponent("programs").path
        var compiling = false
        let deadline = Date().addingTimeInterval(120)
        while !compiling && Date() < deadline && process.isRunning {
            let keys = (try? FileManager.default.contentsOfDirectory(atPath: programs)) ?? []
            compiling = keys.contains { key in
                ((try? FileManager.default.contentsOfDirectory(atPath: programs + "/" + key)) ?? []).contains {
                    $0.hasPrefix("building-")
                }
            }
            if !compiling { usleep(2_000) }
        }
        try #require(compiling, "the compile never started")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // "ran 2" is the program's line ("nothing ran" is kvo-run's).
        #expect(!said.contains("ran 2"), "\(said)")
        #expect(process.terminationStatus != 0, "\(said)")
    }
}
