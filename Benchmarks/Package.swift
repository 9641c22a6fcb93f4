// swift-tools-version:6.1
import PackageDescription

// Allocation benchmarks of the KVO engine (KVOCore), with ordo-one/benchmark.
// A package of its own, so the root package (and `make test`) never builds the
// benchmark framework. Run from the repository root with its own scratch path:
//
//   make bench-core          # run, then check allocations against Thresholds/
//   make bench-core-update   # re-record Thresholds/ after an intended change
//
// See README.md, "Allocation benchmarks of KVOCore".
let package = Package(
    name: "kvo-run-benchmarks",
    dependencies: [
        // The repository root: only its KVOCore library is built.
        .package(name: "kvo-run", path: ".."),
        // The MallocInterposer trait gives the malloc counters (no jemalloc).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KVOCoreBenchmarks",
            dependencies: [
                .product(name: "KVOCore", package: "kvo-run"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "KVOCoreBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
