import Foundation
import Testing
import _KVOTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The one-time build of the runtime and the rewriter (SPEC §11.0), in an
/// empty cache, at a real terminal: said as it starts and ends, stopped by
/// Ctrl-C without leaving anything a later run would use, and completed by
/// that later run. Each build takes half a minute or more, and none of this
/// depends on the engine's speed flags: the checked lane (`make
/// test-checked`, which sets KVO_CHECKED) leaves these to `make test`.
@Suite(
    .serialized,
    .disabled(
        if: ProcessInfo.processInfo.environment["KVO_CHECKED"] != nil,
        "builds the runtime from scratch twice; the same in both lanes, run by make test"))
struct OneTimeBuildTests {
    static let program = """
        import Foundation
        class Account: NSObject { @objc dynamic var balance = 0.0 }
        let acct = Account()
        let token = acct.observe(\\.balance, options: [.new]) { _, change in print(change.newValue ?? 0) }
        acct.balance = 2
        """

    /// The cache's entries: what a later run could find.
    static func entries(_ cache: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("kvo-run").path)) ?? [])
            .sorted()
    }

    @Test func ctrlCStopsTheBuildAndTheNextRunCompletesIt() throws {
        let folder = try Folder()
        let file = try folder.write("first.swift", Self.program)
        let cache = folder.url.appendingPathComponent("cache")
        let environment = ["XDG_CACHE_HOME": cache.path, "NO_COLOR": "1"]

        let interrupted = try Terminal(arguments: [file], environment: environment)
        interrupted.expect("kvo-run: building its Swift runtime and rewriter with ")
        interrupted.expect("(once per toolchain, one to two minutes)")
        // Let the compilers start, then Ctrl-C as a person would.
        usleep(1_500_000)
        interrupted.send("\u{03}")
        interrupted.expect("interrupted (Ctrl-C) while building", timeout: 30)
        #expect(interrupted.wait(timeout: 30) == 1, "\(interrupted.transcript)")
        #expect(!interrupted.transcript.contains("failed:"), "\(interrupted.transcript)")
        #expect(!Self.entries(cache).contains { $0.hasPrefix("runtime-") }, "\(Self.entries(cache))")

        let started = Date()
        let completed = try Terminal(arguments: [file], environment: environment)
        completed.expect("kvo-run: building its Swift runtime and rewriter with ")
        completed.expect("kvo-run: done in ", timeout: 240)
        completed.expect("2.0", timeout: 60)
        #expect(completed.wait(timeout: 60) == 0, "\(completed.transcript)")
        let seconds = Date().timeIntervalSince(started)
        // SPEC §11.0's budget for a first program on an empty cache, on a
        // 2-core machine (the issue measured about 35 s here).
        #expect(seconds < 180, "the first program took \(Int(seconds)) s")
        let runtimes = Self.entries(cache).filter { $0.hasPrefix("runtime-") }
        #expect(runtimes.count == 1 && !runtimes[0].contains(".building-"), "\(runtimes)")
        let runtime = cache.appendingPathComponent("kvo-run").appendingPathComponent(runtimes.first ?? "none")
        #expect(FileManager.default.isExecutableFile(atPath: runtime.appendingPathComponent("kvo-rewriter").path))

        // Built once: a second program says nothing about building.
        let second = try folder.write("second.swift", Self.program + "\nprint(\"again\")\n")
        let again = try CLI.run([second], environment: environment)
        #expect(again.status == 0 && !again.err.contains("building"), "\(again)")
        #expect(again.out.hasSuffix("again\n"), "\(again)")
    }

    // Not at a terminal (a capture, a pipe, CI) nothing is said about the
    // build: `make test-install` checks that, building the runtime from the
    // installed sources in an empty cache and comparing everything the
    // program printed, standard error included, with its golden file.

    /// KVO_SHOW_REWRITTEN=1 shows the rewritten program, cached or not.
    @Test func theRewrittenProgramCanBeShown() throws {
        let folder = try Folder()
        try folder.write("shown.swift", Self.program)
        for _ in 0..<2 {
            let result = try folder.run(["shown.swift"], environment: ["KVO_SHOW_REWRITTEN": "1"])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.err.hasPrefix("// ---- shown.swift, as kvo-run's rewriter gave it to swiftc ----\n"), "\(result)"
            )
            #expect(result.err.contains("import KVOFoundation\n"), "\(result)")
            #expect(result.err.hasSuffix("// ---- end of shown.swift ----\n"), "\(result)")
        }
    }

    /// A toolchain without swift-syntax's host modules: one error that names
    /// the folder and what is missing (the scenario language needs none of it).
    @Test func aToolchainWithoutHostModulesIsNamed() throws {
        let folder = try Folder()
        let real = try #require(
            ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        let fake = try folder.write("toolchain/usr/bin/swiftc", "#!/bin/sh\nexec \(real) \"$@\"\n")
        chmod(fake, 0o755)
        let file = try folder.write("p.swift", Self.program)
        let result = try CLI.run(
            ["--swiftc", fake, file], environment: ["XDG_CACHE_HOME": folder.url.appendingPathComponent("c").path])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.err.contains(
                "kvo-run reads Swift programs with the toolchain's own swift-syntax, and the toolchain of \(fake) has no SwiftSyntax.swiftmodule, libSwiftSyntax.so, SwiftParser.swiftmodule, libSwiftParser.so in "
            ), "\(result)")
        #expect(result.err.contains("toolchain/usr/bin/../lib/swift/host"), "\(result)")
        let scenario = try folder.write("s.kvo", "class A { var x = 0 }\nlet a = A()\nprint(a.x)\n")
        #expect(try CLI.run(["--swiftc", fake, scenario]).out == "0\n")
    }
}
