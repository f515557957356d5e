// swift-tools-version:6.1
// Fuzz targets for Parley's parsers (libFuzzer). A separate package, like Benchmarks/, so the main build never
// carries the sanitizers. Built and run by Scripts/fuzz.sh (`make fuzz`; `make test` runs each target briefly), which
// passes the sanitizer flags (see it for why SwiftPM gets only --sanitize=fuzzer).
//
// Three binaries, each linking only what its targets reach: after every input libFuzzer scans and clears the coverage
// counters of all the instrumented code linked in, and with the server's dependencies (1.5 million counters) that
// scan was 86% of a fast target's time.
import PackageDescription

let package = Package(
    name: "ParleyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Parley", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    ],
    targets: [
        // The libFuzzer hooks' logic, the target type and the input reader every binary shares.
        .target(name: "FuzzHarness"),
        // The protocol library's parsers and the stateful session pair.
        .executableTarget(
            name: "ParleyProtocolFuzz",
            dependencies: ["FuzzHarness", .product(name: "ParleyProtocol", package: "Parley")]
        ),
        // The server's JSON request types and socket frames.
        .executableTarget(
            name: "ParleyAPIFuzz",
            dependencies: ["FuzzHarness", .product(name: "ParleyAPI", package: "Parley")]
        ),
        .executableTarget(
            name: "ParleyKitServerFuzz",
            dependencies: [
                "FuzzHarness",
                .product(name: "ParleyProtocol", package: "Parley"),
                .product(name: "ParleyAPI", package: "Parley"),
                // The client's parsers; Scripts/fuzz.sh builds with testability so the harness reaches internal decoders.
                .product(name: "ParleyKit", package: "Parley"),
                // The server's import-file and request-header parsers.
                .product(name: "ParleyServer", package: "Parley"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The receive target reads the client's database inside the transaction it rolls back.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The group-change target reads server-stored groups' protobufs.
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
