// swift-tools-version:6.1
import Foundation
import PackageDescription

// Release builds of the engine and the interpreter:
// - skip dynamic exclusivity checks: they cost a fifth of the time of a
//   notifying set;
// - use non-atomic reference counting (-assume-single-threaded): a scenario
//   runs on one thread from start to end (kvo-run hands it to one large-stack
//   thread and waits), and atomic retains and releases were a third of the time
//   of a notifying set. Objects must therefore never be shared between threads
//   running at the same time; that includes tests, which `make test` runs one
//   at a time (`--no-parallel`).
//
// KVO_CHECKED=1 builds without them (`make test-checked`, run by CI): the
// fast configuration must never be the only one tested. It also compiles the
// invariant checks (`_checkInvariants()`, the compile condition KVO_CHECKED),
// which the interpreter runs after every statement; elsewhere they are empty.
let checkedLane = Context.environment["KVO_CHECKED"] != nil
let fastRelease: [SwiftSetting] = checkedLane ? [.define("KVO_CHECKED")] : [
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization",
                  "-Xfrontend", "-assume-single-threaded",
                  "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

// kvo-run links the Swift runtime (and the FoundationEssentials that
// swift-argument-parser uses) statically in release builds: binding the shared
// libraries at launch was a third of the start-up of a short scenario.
// The two underscored libraries are FoundationEssentials'
// own dependencies, which `-static-stdlib` alone leaves out.
//
// `--no-export-dynamic`: the executable exports no symbols. When swift-syntax
// was linked in (the Swift route's rewriter, now a helper built on first use)
// it exported 37,000, and the Swift runtime's start-up `dladdr` (finding its
// own path) scans every exported symbol (Benchmarks/README.md has the counts).
//
// Linked by lld, with identical code folded (`--icf=all`) and the 40,000
// relative relocations packed (`-z pack-relative-relocs`, glibc 2.36+): the
// stripped binary 16.7 → 15.5 MB, an empty scenario 1.73 → 1.56 M
// instructions. And GNU libstdc++ linked statically when its archive is
// installed (Linking/static-libstdc++ says how): 3.47 → 1.73 M.
//
// Not position-independent (`-no-pie`): the 40,000 relative relocations
// (Swift's metadata) are resolved at link time instead of at every start,
// and the pages they wrote stay clean, shared with the page cache. An
// empty scenario 3.48 → 3.13 M instructions, 410 → 321 page faults. The
// executable's own image loses address randomisation (libraries, the heap
// and the stack keep theirs); kvo-run is a development tool, and `serve`
// binds to the loopback address unless told otherwise.
//
// KVO_DYNAMIC_RUNTIME=1 keeps it dynamic: `make test-asan` sets it, because
// `-static-stdlib` hides the static AddressSanitizer runtime's malloc from
// libreadline, whose lines ASan would then refuse to free.
let staticLibstdcxx: [String] = {
    let gcc = "/usr/lib/gcc/x86_64-linux-gnu"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: gcc)) ?? []
    guard versions.contains(where: { FileManager.default.fileExists(atPath: "\(gcc)/\($0)/libstdc++.a") }) else {
        return []
    }
    return ["-L", Context.packageDirectory + "/Linking/static-libstdc++"]
}()
// GNU readline and terminfo from their archives too (Linking/static-readline
// says why), when both are installed; otherwise the shared libraries.
let staticReadline: [String] = {
    let folder = "/usr/lib/x86_64-linux-gnu"
    guard ["libreadline.a", "libtinfo.a"].allSatisfy({ FileManager.default.fileExists(atPath: "\(folder)/\($0)") })
    else { return [] }
    return ["-L", Context.packageDirectory + "/Linking/static-readline"]
}()
let staticRuntime: [LinkerSetting] = Context.environment["KVO_DYNAMIC_RUNTIME"] != nil ? [] : [
    .unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims",
                  "-lswiftSynchronization", "-Xlinker", "--no-export-dynamic",
                  "-use-ld=lld", "-Xlinker", "--icf=all", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xclang-linker", "-no-pie"]
                 + staticLibstdcxx + staticReadline,
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "kvo-run",
    // The tool, and KVOCore for the allocation benchmarks (Benchmarks/, `make
    // bench-core`): the libraries are built with unsafe flags (above), which
    // only a local path dependency such as that package may accept.
    products: [
        .executable(name: "kvo-run", targets: ["kvo-run"]),
        .library(name: "KVOCore", targets: ["KVOCore"]),
        // The runtime a compiled Swift program links (SPEC §11.0).
        .library(name: "KVOFoundation", targets: ["KVOFoundation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The object model, KVC and the KVO engine: no parsing, no I/O.
        .target(name: "KVOCore", swiftSettings: fastRelease),
        // The language: syntax, diagnostics, checking, compiling, running.
        // No files, descriptors or terminal: output goes to a `ScriptOutput`.
        // How events and diagnostics are written, for kvo-run and a compiled
        // Swift program's runtime alike: text and JSON Lines event lines,
        // `--explain` steps, diagnostics, the observation graph (DOT) and the
        // trace (SVG), XML escaping. Pure functions of KVOCore's state and
        // events: no I/O, no parsing, so the runtime compiles it from source
        // beside KVOCore.
        .target(name: "KVOOutput", dependencies: ["KVOCore"], swiftSettings: fastRelease),
        .target(name: "KVOScript", dependencies: ["KVOCore", "KVOOutput"], swiftSettings: fastRelease),
        // What a run of the language is hosted by, for kvo-run and the
        // language's own tests alike: the renderer (`ScriptOutput` as text or
        // JSON Lines), the buffered writers it writes to, the format enum and
        // the large-stack thread a run goes on. No terminal, no arguments.
        .target(name: "KVOHost", dependencies: ["KVOCore", "KVOOutput", "KVOScript"], swiftSettings: fastRelease),
        // The runtime of a compiled Swift program (SPEC §11.0): Foundation
        // re-exported, with kvo-run's own NSObject (KVC and KVO on KVOCore's
        // engine), observe(_:options:changeHandler:) and the KVO types.
        // Built here so that `swift build` type-checks it and tests can link
        // it; the copy a program links is compiled by `kvo-run` itself from
        // these sources, KVOCore's and KVOOutput's, without the unsafe flags
        // above (a program may use threads): see KVORun/Swift/RuntimeCache.swift.
        // Swift 5 mode, as the programs are compiled.
        .target(
            name: "KVOFoundation", dependencies: ["KVOCore", "KVOOutput"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // What kvo-run and its Swift rewriter say to each other (SPEC
        // §11.0). The rewriter itself (Sources/RewriterHelper, not a target:
        // kvo-run carries no parser) is compiled by kvo-run on first use,
        // with these files, against the toolchain's own swift-syntax
        // (`usr/lib/swift/host`): see docs/architecture.md.
        .target(name: "RewriterProtocol"),
        // GNU readline, for the REPL. No pkgConfig: Debian's readline.pc adds flags SwiftPM rejects.
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // The git revision of the build, for `--version` (`make` writes it).
        .target(name: "CBuildInfo"),
        // Starting a child that dies with kvo-run (PR_SET_PDEATHSIG): code
        // between fork and exec, which posix_spawn cannot run.
        .target(name: "CSpawn"),
        // The tool around the language: reading files, the golden runner, the
        // REPL's logic and the subcommands (its renderer is KVOHost's).
        .target(
            name: "KVORun",
            dependencies: [
                "KVOCore", "KVOOutput", "KVOScript", "KVOHost", "CReadline", "CBuildInfo", "CSpawn",
                "RewriterProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: fastRelease),
        // `kvo-run serve`, the playground: a small HTTP server (threads, so
        // built without the single-threaded flags of `fastRelease`) that
        // hands every run to one thread (its RunQueue), and the page it
        // serves (Page/: plain HTML, CSS and JavaScript, read at start-up).
        .target(
            name: "KVOServe",
            dependencies: [
                "KVOCore", "KVOHost", "KVOScript", "KVORun",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Page"]),
        // `@main` and the subcommand list.
        .executableTarget(
            name: "kvo-run",
            dependencies: [
                "KVORun", "KVOServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticRuntime),
        // Test traits every test target may use, KVOCoreTests included
        // (which must not link the language or the tool): `.releaseOnly`.
        .target(name: "_KVOTestTraits", path: "Tests/_KVOTestTraits"),
        // What the test targets share: running a scenario in-process with
        // captured output, running the built kvo-run, a pseudo-terminal, the
        // package root. Not KVORun: the language's tests must not need the tool.
        .target(
            name: "_KVOTestSupport", dependencies: ["KVOCore", "KVOOutput", "KVOScript", "KVOHost", "_KVOTestTraits"],
            path: "Tests/_KVOTestSupport"),
        .testTarget(name: "KVOCoreTests", dependencies: ["KVOCore", "_KVOTestTraits"]),
        .testTarget(name: "KVOScriptTests", dependencies: ["KVOScript", "KVOOutput", "KVOHost", "_KVOTestSupport"]),
        .testTarget(
            name: "KVORunTests",
            dependencies: [
                "KVOScript", "KVOOutput", "KVOHost", "KVORun", "KVOServe", "RewriterProtocol", "_KVOTestSupport",
                "_KVOTestTraits",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
