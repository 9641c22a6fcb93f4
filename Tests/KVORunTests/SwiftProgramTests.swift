import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun
import KVOOutput
import RewriterProtocol

/// The compiled Swift route (SPEC §11.0): the driver's errors, its caches
/// and its limits. The programs' own behaviour is in scenarios/swift/.
@Suite(.serialized) struct SwiftProgramTests {
    /// Runs `source` as a Swift program, capturing all it prints.
    static func run(
        _ source: String, settings: SwiftProgram.Settings = .init(), compileOnly: Bool = false,
        environment: [String: String] = [:]
    ) -> (text: String, status: Int32) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-swift-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("program.swift").path
        try? source.write(toFile: path, atomically: true, encoding: .utf8)
        let outputPath = directory.appendingPathComponent("output").path
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        let descriptor = open(outputPath, O_WRONLY)
        var saved: [String: String?] = [:]
        for (key, value) in environment {
            saved[key] = ProcessInfo.processInfo.environment[key]
            setenv(key, value, 1)
        }
        let status = SwiftProgram.run(
            source, display: "program.swift", path: path, settings: settings, compileOnly: compileOnly,
            output: descriptor)
        for (key, value) in saved {
            if let value { setenv(key, value, 1) } else { unsetenv(key) }
        }
        close(descriptor)
        return ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "", status)
    }

    /// Issue 40: a program that does not parse gets swiftc's own parse
    /// errors for the user's text (`expected '}' in class`), nothing past the
    /// end of the file and nothing about names the rewriting introduced.
    @Test func aProgramThatDoesNotParseGetsSwiftcsParseErrors() {
        let result = Self.run(
            "import Foundation\n\nclass Account: NSObject {\n    @objc dynamic var balance = 0\n\n"
                + "let acct = Account()\nlet token = acct.observe(\\.balance, options: [.new]) { _, change in\n"
                + "    print(change.newValue!)\n}\nacct.balance = 5\n", compileOnly: true)
        #expect(result.status == 2)
        #expect(result.text.contains("program.swift:11:1: error: expected '}' in class"), "\(result.text)")
        #expect(result.text.contains("program.swift:3:25: note: to match this opening '{'"))
        #expect(!result.text.contains("_kvo"))
        #expect(!result.text.contains("program.swift:12:"))
    }

    /// A program that imports only Foundation runs in the runtime's program
    /// host (ProgramHost) when the runtime has one: its output, exit status
    /// and trap as before, its `argv[0]` its own path, and nothing of the
    /// host's in its environment.
    @Test func aProgramRunsInTheProgramHost() throws {
        let swiftc = try Toolchain.find(nil)
        let cache = try RuntimeCache.checkedCacheRoot()
        let runtime = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: cache)
        let source = """
            import Foundation
            class Account: NSObject { @objc dynamic var balance = 0 }
            let account = Account()
            let token = account.observe(\\.balance, options: [.new]) { _, change in print("new", change.newValue ?? -1) }
            account.balance = 7
            print(CommandLine.arguments[0].hasSuffix("/program"), CommandLine.arguments.count)
            print(ProcessInfo.processInfo.environment["\(ProgramHost.libraryVariable)"] ?? "unset")
            exit(account.balance == 7 ? 3 : 4)

            """
        let result = Self.run(source)
        #expect(result.text.hasSuffix("  new 7\ntrue 1\nunset\n"), "\(result.text)")
        #expect(result.status == 3)
        let program = try ProgramCache(root: cache, swiftc: swiftc, runtime: runtime).program(
            source, display: "program.swift", deadline: .none, report: { _, _ in })
        let host = ProgramHost.path(in: runtime)
        #expect(program.host == (FileManager.default.fileExists(atPath: host) ? host : nil))
        let trapped = Self.run("import Foundation\nlet xs = [1]\nprint(xs[xs.count])\n")
        #expect(trapped.status == 1)
        #expect(
            trapped.text.contains("program.swift:3:1: error: the program stopped: a Swift runtime trap"),
            "\(trapped.text)")
    }

    /// The host run by hand says what it is for; a program it cannot load
    /// (here a file that is not a library) is said at the program's first
    /// line as kvo-run's bug, with status 1, not a crash.
    @Test func theProgramHostRefusesWhatItCannotRun() throws {
        let swiftc = try Toolchain.find(nil)
        let runtime = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: try RuntimeCache.checkedCacheRoot())
        let host = ProgramHost.path(in: runtime)
        try #require(FileManager.default.fileExists(atPath: host))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ environment: [String: String]) throws -> (status: Int32, error: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: host)
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let alone = try run([:])
        #expect(alone.status == 70)
        #expect(
            alone.error
                == "kvo-program-host: kvo-run runs compiled Swift programs in this host; run the program with kvo-run\n"
        )
        let notALibrary = folder.appendingPathComponent("program").path
        try "not a program\n".write(toFile: notALibrary, atomically: true, encoding: .utf8)
        let broken = try run([
            ProgramHost.libraryVariable: notALibrary, ProgramChannel.Settings.Name.sourceName: "account.swift",
        ])
        #expect(broken.status == 1)
        #expect(
            broken.error.hasPrefix(
                "account.swift:1:1: error: the compiled program does not load in kvo-run's program host ("),
            "\(broken.error)")
        #expect(
            broken.error.hasSuffix(
                "this is a bug in kvo-run: please report it with the program and 'kvo-run --version'\n"))
    }

    @Test func aScenarioThatImportsFoundationIsSwift() throws {
        #expect(SwiftProgram.isSwift("// note\n\n/* a\n b */\nimport Foundation\n", file: "x.kvo"))
        #expect(SwiftProgram.isSwift("print(1)", file: "x.swift"))
        #expect(!SwiftProgram.isSwift("class A { }\nimport Foundation\n", file: "x.kvo"))
    }

    @Test(arguments: [
        ("#!/usr/bin/env kvo-run\nimport Foundation\n", true),
        ("  \t// a comment\n\timport Cocoa", true),
        ("/* one */ /* two\n still */   import UIKit\n", true),
        ("/* a /* nested\n */ still inside */\nimport AppKit\n", false),
        ("/* open\n\n", false),
        ("// only comments\n\n", false),
        ("", false),
        ("import Foundationish\n", true),
        ("import Swift\nimport Foundation\n", false),
        ("// CRLF\r\n\r\nimport Foundation\r\n", true),
        ("\u{FEFF}import Foundation\n", false),
        ("let s = \"é\"\nimport Foundation\n", false),
    ])
    func theFirstStatementDecides(source: String, isSwift: Bool) {
        // Read as bytes: blank lines, `//` and `/* */` comments (a `/*` only
        // where a statement could start), a `#!` line and a CRLF line end
        // are skipped; the first other line decides.
        #expect(SwiftProgram.isSwift(source, file: "x.kvo") == isSwift, "\(source.debugDescription)")
    }

    @Test func withoutAToolchainOneClearError() throws {
        var settings = SwiftProgram.Settings()
        settings.swiftc = "/nonexistent/swiftc"
        let result = Self.run("import Foundation\nprint(1)\n", settings: settings)
        #expect(result.status == 2)
        #expect(
            result.text
                == "program.swift:1:1: error: this is a Swift program, and the Swift compiler '/nonexistent/swiftc' (named by --swiftc or KVO_SWIFTC) cannot be run; name an installed swiftc\nimport Foundation\n^\n"
        )
        let none = Self.run("import Foundation\nprint(1)\n", environment: ["PATH": "/nonexistent", "KVO_SWIFTC": ""])
        #expect(none.status == 2)
        #expect(none.text.contains("needs the Swift compiler 'swiftc', which is not on PATH"))
    }

    @Test func compileErrorsLandOnTheUsersLine() throws {
        let source = """
            import Foundation
            class Account: NSObject {
                @objc dynamic var balance: Double = 0
            }
            let acct = Account()
            acct.balance = "a lot"
            """
        let result = Self.run(source, compileOnly: true)
        #expect(result.status == 2)
        #expect(
            result.text.hasPrefix("program.swift:6:16: error: cannot assign value of type 'String' to type 'Double'"))
        #expect(result.text.contains("\nacct.balance = \"a lot\"\n               ^\n"))
    }

    @Test func checkCompilesWithoutRunning() throws {
        let result = Self.run("import Foundation\nprint(\"ran\")\n", compileOnly: true)
        #expect(result == ("", 0))
    }

    @Test func timeoutStopsARunawayProgram() throws {
        var settings = SwiftProgram.Settings()
        settings.timeout = 1
        let source = "import Foundation\nprint(\"start\")\nwhile true {}\n"
        // Compiled first: the limit counts compiling too, which could take the second.
        #expect(Self.run(source, compileOnly: true) == ("", 0))
        let result = Self.run(source, settings: settings)
        #expect(result.status == 1)
        #expect(
            result.text
                == "start\nprogram.swift:3:1: error: the program ran longer than 1 s and was stopped (--timeout)\nwhile true {}\n^\n"
        )
    }

    /// `--max-steps` counts a scenario's statements; a compiled program has
    /// no interpreter to count them, and the user is told so rather than the
    /// option being ignored (the program then stops at `--timeout`).
    @Test func maxStepsOnACompiledProgramIsSaidNotToApply() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "import Foundation\nwhile true {}\n".write(
            to: folder.appendingPathComponent("loop.swift"), atomically: true, encoding: .utf8)
        // Compiled first: the limit counts compiling too, which could take the second.
        #expect(try CLI.run(["check", "loop.swift"], in: folder).status == 0)
        let result = try CLI.run(["--max-steps", "10", "--timeout", "1", "loop.swift"], in: folder)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.err.hasPrefix(
                "kvo-run: warning: --max-steps counts a scenario's statements and does not apply to a compiled Swift program; it stops at --timeout SECONDS, --max-depth or Ctrl-C\n"
            ), "\(result)")
        #expect(
            result.err.contains("loop.swift:2:1: error: the program ran longer than 1 s and was stopped (--timeout)"))
    }

    @Test func theCacheNoticesAChangedRuntime() throws {
        // A copy of the runtime's sources: changing it must rebuild the runtime.
        let sources = packageRoot().appendingPathComponent("Sources")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-runtime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for module in RuntimeCache.sourceModules {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: sources.appendingPathComponent(module), to: copy.appendingPathComponent(module))
        }
        setenv("KVO_RUNTIME_SOURCES", copy.path, 1)
        defer { unsetenv("KVO_RUNTIME_SOURCES") }
        let swiftc = try Toolchain.find(nil)
        let first = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot())
        #expect(try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot()) == first)
        let extra = copy.appendingPathComponent("KVOFoundation/Extra.swift")
        try "public let _kvoTestMarker = 1\n".write(to: extra, atomically: true, encoding: .utf8)
        let second = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot())
        #expect(second != first)
        #expect(FileManager.default.fileExists(atPath: second + "/libKVOFoundation.so"))
        #expect(FileManager.default.fileExists(atPath: second + "/libKVOOutput.so"))
        // The shared output module is part of the key too (not rebuilt here:
        // the key alone says whether it would be).
        func key() throws -> String {
            RuntimeCache.runtimeKey(
                sources: copy.path, files: RuntimeCache.allSourceFiles(copy.path),
                toolchain: try Toolchain.version(swiftc, cache: RuntimeCache.cacheRoot()),
                cache: RuntimeCache.cacheRoot())
        }
        let before = try key()
        #expect(second.hasSuffix("runtime-" + before))
        let output = copy.appendingPathComponent("KVOOutput/TextFormat.swift")
        try (String(contentsOf: output, encoding: .utf8) + "// changed\n").write(
            to: output, atomically: true, encoding: .utf8)
        #expect(try key() != before)
    }

    /// Sources named by KVO_RUNTIME_SOURCES without one of the runtime's
    /// modules: said, not compiled in part ("no input files" from swiftc).
    @Test func runtimeSourcesWithoutAModuleAreNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-src-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("KVOCore"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("KVOFoundation"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        setenv("KVO_RUNTIME_SOURCES", folder.path, 1)
        defer { unsetenv("KVO_RUNTIME_SOURCES") }
        let swiftc = try Toolchain.find(nil)
        #expect {
            _ = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot())
        } throws: { error in
            (error as? SwiftProgram.Failure)?.message
                == "the Swift runtime's sources in \(folder.path) have no KVOOutput folder; set KVO_RUNTIME_SOURCES to the Sources folder of a kvo-run checkout (it holds KVOCore, KVOOutput, KVOFoundation, RewriterProtocol, RewriterHelper)"
        }
    }

    @Test func aFileChangedInPlaceChangesTheRuntimeKey() throws {
        // The key is remembered by each file's stat; an edit of the same size
        // changes the file's change time, so the sources are hashed again.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("A.swift")
        try "let a = 1\n".write(to: file, atomically: false, encoding: .utf8)
        let first = RuntimeCache.runtimeKey(
            sources: folder.path, files: [file.path], toolchain: "t1", cache: RuntimeCache.cacheRoot())
        #expect(
            RuntimeCache.runtimeKey(
                sources: folder.path, files: [file.path], toolchain: "t1", cache: RuntimeCache.cacheRoot()) == first)
        #expect(
            RuntimeCache.runtimeKey(
                sources: folder.path, files: [file.path], toolchain: "t2", cache: RuntimeCache.cacheRoot()) != first)
        usleep(20_000)  // past the file system's clock tick
        try "let b = 2\n".write(to: file, atomically: false, encoding: .utf8)
        #expect(
            RuntimeCache.runtimeKey(
                sources: folder.path, files: [file.path], toolchain: "t1", cache: RuntimeCache.cacheRoot()) != first)
    }

    /// The sources are listed in the folders' order, unsorted: the key is
    /// the same whatever the order, remembered or hashed afresh, and a file
    /// renamed (same text) or gone is another key.
    @Test func theRuntimeKeyDoesNotDependOnTheFilesOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["A.swift", "B.swift", "C.swift"]
        for (index, name) in names.enumerated() {
            try "let v\(index) = \(index)\n".write(
                to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        let files = names.map { folder.appendingPathComponent($0).path }
        // A cache of its own: the first key is hashed from the text, the
        // others found by the stamp.
        let cache = folder.appendingPathComponent("cache").path
        let first = RuntimeCache.runtimeKey(sources: folder.path, files: files, toolchain: "t", cache: cache)
        let reversed = RuntimeCache.runtimeKey(
            sources: folder.path, files: files.reversed(), toolchain: "t", cache: cache)
        #expect(reversed == first)
        let fresh = folder.appendingPathComponent("fresh").path
        #expect(
            RuntimeCache.runtimeKey(
                sources: folder.path, files: [files[2], files[0], files[1]], toolchain: "t", cache: fresh) == first)
        #expect(
            RuntimeCache.runtimeKey(sources: folder.path, files: Array(files.prefix(2)), toolchain: "t", cache: cache)
                != first)
        let renamed = folder.appendingPathComponent("D.swift").path
        #expect(rename(files[2], renamed) == 0)
        #expect(
            RuntimeCache.runtimeKey(
                sources: folder.path, files: [files[0], files[1], renamed], toolchain: "t", cache: fresh) != first)
        #expect(RuntimeCache.sourceFiles(under: folder.path).sorted() == [files[0], files[1], renamed])
    }

    /// What the runtime and programs are compiled with (SPEC §11.0; issue 28's
    /// measurements in Benchmarks/README.md; issue 31's metadata accessors,
    /// which change no behaviour): changing it is a decision.
    @Test func theCompileCommandsArePinned() throws {
        #expect(
            RuntimeCache.runtimeFlags == [
                "-O", "-wmo", "-parse-as-library", "-swift-version", "5", "-enforce-exclusivity=unchecked",
                "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
            ])
        #expect(
            ProgramCompiler.programFlags == [
                "-swift-version", "5", "-module-name", "main", "-Onone", "-suppress-warnings", "-diagnostic-style",
                "llvm", "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
            ])
        // No ld.lld beside this swiftc: the driver's own linker.
        #expect(
            ProgramCompiler.compileArguments(
                swiftc: "/nonexistent/swiftc", runtime: "/rt", source: "/p/main.swift", output: "/p/program")
                == ProgramCompiler.programFlags + [
                    "-I", "/rt", "-L", "/rt", "-lKVOFoundation", "-lKVOOutput", "-lKVOCore", "-Xlinker", "-rpath",
                    "-Xlinker", "/rt", "/p/main.swift", "-o", "/p/program",
                ])
        #expect(RuntimeCache.staticLibraries.first == "swiftCore")
    }

    @Test func theDriversPlanIsFollowedWithoutTheDriver() throws {
        let printed = """
            /tc/bin/swift-frontend -frontend -c -primary-file '/tmp/a b/main.swift' -target x86_64-unknown-linux-gnu -I /rt -module-name main -o /tmp/TemporaryDirectory.x/main-1.o
            /tc/bin/swift-autolink-extract /tmp/TemporaryDirectory.x/main-1.o -o /tmp/TemporaryDirectory.x/main-2.autolink
            /tc/bin/clang -fuse-ld=lld -pie /tc/lib/swift/linux/x86_64/swiftrt.o /tmp/TemporaryDirectory.x/main-1.o @/tmp/TemporaryDirectory.x/main-2.autolink -L /tc/lib/swift/linux -lswiftCore --target=x86_64-unknown-linux-gnu -L /rt -lKVOFoundation -lKVOCore -o '/tmp/a b/program'

            """
        let jobs = try #require(
            CompileJobs.plan(printed, sourcePath: "/tmp/a b/main.swift", outputPath: "/tmp/a b/program", runtime: "/rt")
        )
        #expect(
            jobs.frontendJob(source: "/p/main.swift", folder: "/p")
                == [
                    "/tc/bin/swift-frontend", "-frontend", "-c", "-primary-file", "/p/main.swift", "-target",
                    "x86_64-unknown-linux-gnu", "-I", "/rt", "-module-name", "main", "-o", "/p/main.o",
                ])
        #expect(
            jobs.autolinkJob(folder: "/p") == ["/tc/bin/swift-autolink-extract", "/p/main.o", "-o", "/p/main.autolink"])
        #expect(
            jobs.linkJob(folder: "/p", output: "/p/program")
                == [
                    "/tc/bin/clang", "-fuse-ld=lld", "-pie", "/tc/lib/swift/linux/x86_64/swiftrt.o", "/p/main.o",
                    "@/p/main.autolink", "-L", "/tc/lib/swift/linux", "-lswiftCore",
                    "--target=x86_64-unknown-linux-gnu",
                    "-L", "/rt", "-lKVOFoundation", "-lKVOCore", "-o", "/p/program",
                ])
        // A program importing only the runtime: libKVORuntime.so alone.
        #expect(
            jobs.runtimeLinkJob(folder: "/p", output: "/p/program")
                == [
                    "/tc/bin/clang", "-fuse-ld=lld", "-pie", "-Xlinker", "--build-id",
                    "/tc/lib/swift/linux/x86_64/swiftrt.o", "/p/main.o", "--target=x86_64-unknown-linux-gnu", "-L",
                    "/rt",
                    "-lKVORuntime", "-lm", "-ldl", "-lpthread", "-lutil", "-Xlinker", "-rpath", "-Xlinker", "/rt", "-o",
                    "/p/program",
                ])
        // clang's own plan for that link: the linker's command.
        let clang = """
            clang version 21.0.0
            Target: x86_64-unknown-linux-gnu
             "/tc/bin/ld.lld" "-pie" "-o" "/p/program" "/tc/lib/swift/linux/x86_64/swiftrt.o" "/p/main.o" "-L/rt" "-lKVORuntime"

            """
        let direct = try #require(CompileJobs.linkerCommand(clang, folder: "/p", outputPath: "/p/program"))
        var learned = jobs
        learned.directLink = direct
        #expect(
            learned.directLinkJob(folder: "/q", output: "/q/program")
                == [
                    "/tc/bin/ld.lld", "-pie", "-o", "/q/program", "/tc/lib/swift/linux/x86_64/swiftrt.o", "/q/main.o",
                    "-L/rt", "-lKVORuntime",
                ])
        #expect(CompileJobs(serialized: learned.serialized) == learned)
        #expect(CompileJobs(serialized: jobs.serialized) == jobs)
        #expect(CompileJobs(serialized: "driver\n") == nil)
        // With the runtime's program host: the shared object it loads, of the
        // same object, with Swift's registration of its metadata.
        #expect(
            CompileJobs.plan(
                printed, sourcePath: "/tmp/a b/main.swift", outputPath: "/tmp/a b/program", runtime: "/rt",
                hosted: true)?.runtimeLinkJob(folder: "/p", output: "/p/program")
                == [
                    "/tc/bin/clang", "-fuse-ld=lld", "-shared", "-Xlinker", "--build-id",
                    "/tc/lib/swift/linux/x86_64/swiftrt.o", "/p/main.o", "--target=x86_64-unknown-linux-gnu", "-o",
                    "/p/program",
                ])
        // Without libKVORuntime.so, no such link; a plan it cannot follow, none.
        #expect(
            CompileJobs.plan(printed, sourcePath: "/tmp/a b/main.swift", outputPath: "/tmp/a b/program")?.runtimeLink
                == nil)
        let withResponseFile = printed.replacingOccurrences(of: "-module-name main", with: "@/tmp/args.resp")
        #expect(
            CompileJobs.plan(withResponseFile, sourcePath: "/tmp/a b/main.swift", outputPath: "/tmp/a b/program") == nil
        )
        let twoJobs = printed.split(separator: "\n").prefix(2).joined(separator: "\n")
        #expect(CompileJobs.plan(twoJobs, sourcePath: "/tmp/a b/main.swift", outputPath: "/tmp/a b/program") == nil)
    }

    @Test func storedPlansKeepEmptyAndNonASCIIArguments() {
        // The plan is read back by bytes: an empty argument and a folder
        // named in another script survive the round trip.
        let jobs = CompileJobs(
            frontend: ["/tc/swift-frontend", "-frontend", "", "-I", "/home/zoë/緩存"],
            autolink: ["/tc/swift-autolink-extract", "@KVO_OBJECT@"], link: ["/tc/clang", "-o", "@KVO_OUTPUT@"],
            runtimeLink: nil, directLink: ["/tc/ld.lld", "e\u{301}"])
        #expect(CompileJobs(serialized: jobs.serialized) == jobs)
    }

    @Test func theImportLineIsFoundByBytes() {
        #expect(SwiftProgram.importLine(of: "// a program\n\n  \timport Foundation\nlet x = 1\n") == 3)
        // "\r\n" is one Character but ends a line as "\n" does.
        #expect(SwiftProgram.importLine(of: "// é\r\nimport Foundation\r\n") == 2)
        #expect(SwiftProgram.importLine(of: "let importer = 1\n") == 1)
        #expect(SwiftProgram.importLine(of: "") == 1)
    }

    @Test func foldersAreMadeWithTheirParents() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-dirs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try SwiftProgram.makeDirectories(root + "/a/b/c")
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/c"))
        // There already: nothing to do, no error.
        try SwiftProgram.makeDirectories(root + "/a/b/c")
        try SwiftProgram.makeDirectories(root + "/a")
        // A file in the way is an error naming the folder it could not make.
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(throws: SwiftProgram.Failure.self) { try SwiftProgram.makeDirectories(root + "/file/d") }
    }

    @Test func shellWordsSplitsAsAShellWould() throws {
        #expect(
            ShellWords.split(#"a 'b c' "d\"e" f\ g 'it'\''s'  "/x y/z""#)
                == ["a", "b c", "d\"e", "f g", "it's", "/x y/z"])
        #expect(ShellWords.split("a 'b") == nil)
        #expect(ShellWords.split(#"a "b"#) == nil)
        #expect(ShellWords.split("") == [])
    }

    @Test func onlyTheRuntimeImportLinksAgainstTheRuntimeLibrary() throws {
        #expect(ProgramCompiler.importsOnlyRuntime("import KVOFoundation\nlet a = 1\n"))
        #expect(!ProgramCompiler.importsOnlyRuntime("import KVOFoundation\nimport Dispatch\n"))
        // Any other mention is taken for an import: the safe side.
        #expect(!ProgramCompiler.importsOnlyRuntime("import KVOFoundation\n// important\n"))
        #expect(!ProgramCompiler.importsOnlyRuntime("let a = 1\n"))
    }

    /// The bytes of a file, for looking for a library's name in a program.
    static func contains(_ path: String, _ text: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data(text.utf8)) != nil
    }

    @Test func aCachedProgramIsNeitherRewrittenNorCompiledAgain() throws {
        // New to the cache (a fresh comment), with a rewriter warning.
        let source = """
            import Foundation
            // \(UUID().uuidString)
            class Order: NSObject {
                @objc dynamic var quantity = 1
                @objc var total: Int { quantity * 2 }
            }
            let order = Order()
            let token = order.observe(\\.total, options: [.new]) { _, change in print("total", change.newValue ?? 0) }
            order.quantity = 3
            print("done")
            """
        let first = Self.run(source)
        #expect(first.status == 0)
        #expect(
            first.text.hasPrefix(
                "program.swift:8:27: warning: passing reference to non-'@objc dynamic' property 'total'"))
        #expect(first.text.hasSuffix("\ndone\n"))
        let swiftc = try Toolchain.find(nil)
        let runtime = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot())
        let folder =
            RuntimeCache.cacheRoot() + "/programs/"
            + ProgramCache.programKey(source, display: "program.swift", runtime: runtime)
        let binary = folder + "/program"
        let before = try FileManager.default.attributesOfItem(atPath: binary)
        // The same text again, warning included, from the cached program.
        #expect(Self.run(source) == first)
        let after = try FileManager.default.attributesOfItem(atPath: binary)
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(FileManager.default.fileExists(atPath: folder + "/warnings"))
        // Another file name is another program (the name is in its messages).
        #expect(
            ProgramCache.programKey(source, display: "other.swift", runtime: runtime)
                != ProgramCache.programKey(source, display: "program.swift", runtime: runtime))
        // It imports only the runtime: the shared object the runtime's program
        // host loads, naming no library; recorded as such beside its size. The
        // host holds what libKVORuntime.so would, which is not linked.
        #expect(FileManager.default.fileExists(atPath: ProgramHost.path(in: runtime)))
        #expect(!FileManager.default.fileExists(atPath: runtime + "/libKVORuntime.so"))
        let size = try String(contentsOfFile: folder + "/" + ProgramCache.sizeName, encoding: .utf8)
        #expect(size.hasSuffix(ProgramCache.hostedMark))
        #expect(!Self.contains(binary, "libKVORuntime.so"))
        #expect(!Self.contains(binary, "libswiftCore.so"))
    }

    @Test func aProgramWithAnotherImportLinksAgainstSwiftsLibraries() throws {
        let source = """
            import Foundation
            import Dispatch
            // \(UUID().uuidString)
            class Job: NSObject { @objc dynamic var state = "new" }
            let job = Job()
            let token = job.observe(\\.state, options: [.old, .new]) { _, change in
                print(change.oldValue ?? "-", "->", change.newValue ?? "-")
            }
            DispatchQueue(label: "work").sync { job.state = "done" }
            """
        let result = Self.run(source)
        #expect(result == ("job.state → token {kind = 1; new = done; old = new}\n  new -> done\n", 0))
        let runtime = try RuntimeCache.runtimeDirectory(
            swiftc: try Toolchain.find(nil), cache: RuntimeCache.cacheRoot())
        let binary =
            RuntimeCache.cacheRoot() + "/programs/"
            + ProgramCache.programKey(source, display: "program.swift", runtime: runtime) + "/program"
        #expect(Self.contains(binary, "libswiftCore.so"))
        #expect(!Self.contains(binary, "libKVORuntime.so"))
    }

    @Test func theRuntimesSourcesAreFoundInSubfolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-src-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("Model/Deep")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        for name in ["A.swift", "Model/B.swift", "Model/Deep/C.swift", "notes.txt", ".hidden.swift"] {
            try "".write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        #expect(
            RuntimeCache.sourceFiles(under: folder.path).sorted()
                == ["A.swift", "Model/B.swift", "Model/Deep/C.swift"].map { folder.path + "/" + $0 })
    }

    @Test func theProgramsEnvironmentIsKvoRunsWithItsOwnSettings() throws {
        // An inherited KVO_MAX_DEPTH is replaced by kvo-run's setting; the rest is inherited.
        let result = Self.run(
            """
            import Foundation
            let environment = ProcessInfo.processInfo.environment
            print(environment["KVO_MAX_DEPTH"] ?? "-", environment["KVO_TEST_INHERITED"] ?? "-")
            print(environment.keys.filter { $0 == "KVO_MAX_DEPTH" }.count)
            """, environment: ["KVO_MAX_DEPTH": "7", "KVO_TEST_INHERITED": "yes"])
        #expect(result == ("1000 yes\n1\n", 0))
    }

    @Test func rewriterKeepsColumnsAndMarksLines() throws {
        let result = try TestRewriter.rewrite(
            "import Foundation\nclass A: NSObject {\n    @objc dynamic var x = 0\n}\nlet a = A()\na.x = 1\n",
            fileName: "f.swift")
        #expect(result.source.contains("import KVOFoundation"))
        // `@objc dynamic` blanked column for column (4 + 5 + 1 + 7 + 1 spaces).
        let blanked = String(repeating: " ", count: 18)
        #expect(
            result.source.contains(
                "\n\(blanked)var x = 0 { willSet { _kvoWill(self, \"x\", self.x, newValue) } didSet { _kvoDid(self, \"x\", self.x) } }\n"
            ),
            "\(result.source)")
        // A top-level statement's mark also starts a picture's statement.
        #expect(
            result.source.contains("_kvoTopLevel(6, 1, 1)\n#sourceLocation(file: \"f.swift\", line: 6)\na.x = 1"))
        #expect(result.source.contains("let a = A(); _ = _kvoNamed(a, \"a\")"))
        #expect(result.warnings.isEmpty)
    }

    @Test func onlyTopLevelStatementsAreMarkedAsTopLevel() throws {
        let result = try TestRewriter.rewrite(
            "import Foundation\nfunc f() {\n    print(1)\n    print(2)\n}\nf()\n", fileName: "f.swift")
        #expect(result.source.contains("_kvoAt(3, 5, 5)\n"), "\(result.source)")
        #expect(result.source.contains("_kvoAt(4, 5, 5)\n"), "\(result.source)")
        #expect(result.source.contains("_kvoTopLevel(6, 1, 1)\n"), "\(result.source)")
        #expect(!result.source.contains("_kvoTopLevel(3,"))
    }

    /// `let a = A(); a.x = 1` on one line: the name was inserted after the
    /// `;`, making an empty statement swiftc rejects.
    @Test func aNamedBindingFollowedByASemicolon() throws {
        let result = try TestRewriter.rewrite(
            "import Foundation\nclass A: NSObject { }\nlet a = A(); print(a)\n", fileName: "f.swift")
        #expect(result.source.contains("let a = A(); _ = _kvoNamed(a, \"a\"); print(a)"), "\(result.source)")
    }
}
