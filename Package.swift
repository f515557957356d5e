// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyProtocol", targets: ["ParleyProtocol"]),
        .executable(name: "parley-interop-peer", targets: ["parley-interop-peer"]),
        .executable(name: "parley-demo", targets: ["parley-demo"]),
        .library(name: "ParleyAPI", targets: ["ParleyAPI"]),
        .library(name: "ParleyServer", targets: ["ParleyServer"]),
        .executable(name: "parley-server", targets: ["parley-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // Edwards-curve operations for XEdDSA (libsodium) and SHAKE256 (OpenSSL libcrypto).
        .target(
            name: "CParleyCrypto",
            linkerSettings: [.linkedLibrary("sodium"), .linkedLibrary("crypto")]
        ),
        .target(
            name: "ParleyProtocol",
            dependencies: [
                "CParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // Argon2id password hashing for device credentials (libsodium).
        .target(name: "CParleyPassword", linkerSettings: [.linkedLibrary("sodium")]),
        .target(name: "ParleyAPI"),
        .target(
            name: "ParleyServer",
            dependencies: [
                "ParleyAPI", "ParleyProtocol", "CParleyPassword",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "parley-server",
            dependencies: ["ParleyServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "parley-interop-peer", dependencies: ["ParleyProtocol"]),
        .executableTarget(name: "parley-demo", dependencies: ["ParleyProtocol"]),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: ["ParleyProtocol"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyInteropTests", dependencies: ["ParleyProtocol"]),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: [
                "ParleyServer", "ParleyAPI", "ParleyProtocol",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
