// swift-tools-version:6.1
// Parley's package-benchmark suites. A separate package so the main build and tests do not
// compile the benchmark tooling. Run: `swift package --package-path Benchmarks benchmark`,
// or `make bench` for the side-by-side comparison with Signal's C library.
import PackageDescription

let package = Package(
    name: "ParleyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Parley", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ParleyBenchmarks",
            dependencies: [
                .product(name: "ParleyProtocol", package: "Parley"),
                // The group server's change rules (group_change_* rows).
                .product(name: "ParleyServer", package: "Parley"),
                .product(name: "ParleyAPI", package: "Parley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "ParleyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
