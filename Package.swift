// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ParleyProtocol", targets: ["ParleyProtocol"]),
        .executable(name: "parley-interop-peer", targets: ["parley-interop-peer"]),
        .executable(name: "parley-demo", targets: ["parley-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
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
        .executableTarget(name: "parley-interop-peer", dependencies: ["ParleyProtocol"]),
        .executableTarget(name: "parley-demo", dependencies: ["ParleyProtocol"]),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: ["ParleyProtocol"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyInteropTests", dependencies: ["ParleyProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)
