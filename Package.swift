// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "kvo-run",
    products: [
        .executable(name: "kvo-run", targets: ["kvo-run"]),
        .library(name: "KVOCore", targets: ["KVOCore"]),
        .library(name: "KVOScript", targets: ["KVOScript"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The object model, KVC and the KVO engine: no parsing, no I/O.
        .target(name: "KVOCore"),
        // Lexer, parser, checker/compiler, interpreter and output formats.
        .target(name: "KVOScript", dependencies: ["KVOCore"]),
        // GNU readline, for the REPL. No pkgConfig: Debian's readline.pc adds flags SwiftPM rejects.
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .executableTarget(
            name: "kvo-run",
            dependencies: [
                "KVOScript", "CReadline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "KVOCoreTests", dependencies: ["KVOCore"]),
        .testTarget(name: "KVOScriptTests", dependencies: ["KVOScript"]),
        .testTarget(name: "KVORunTests", dependencies: ["KVOScript"]),
    ],
    swiftLanguageModes: [.v6]
)
