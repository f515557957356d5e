// swift-tools-version:6.1
// Fuzz targets for Parley's parsers (libFuzzer). A separate package, like Benchmarks/, so the main build never
// carries the sanitizers. Built and run by Scripts/fuzz.sh (`make fuzz`; `make test` runs each target briefly):
//   swift build --package-path Fuzz --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address
import PackageDescription

let package = Package(
    name: "ParleyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Parley", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "ParleyFuzz",
            dependencies: [
                .product(name: "ParleyProtocol", package: "Parley"),
                .product(name: "ParleyAPI", package: "Parley"),
                // The client's parsers; Scripts/fuzz.sh builds with testability so the harness reaches internal decoders.
                .product(name: "ParleyKit", package: "Parley"),
                // The server's import-file parser.
                .product(name: "ParleyServer", package: "Parley"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
