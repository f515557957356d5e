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
        .library(name: "ParleyGRPC", targets: ["ParleyGRPC"]),
        .library(name: "ParleyKit", targets: ["ParleyKit"]),
        .executable(name: "parley", targets: ["parley"]),
        .executable(name: "parley-server", targets: ["parley-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
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
        // libsodium for secrets people type: Argon2id for device credentials and PIN backups, ristretto255 for the
        // PIN backup's oblivious PRF (server evaluation in ParleyServer, client blinding in ParleyKit).
        .target(name: "CParleyPassword", linkerSettings: [.linkedLibrary("sodium")]),
        // The one Swift wrapper of CParleyPassword: Argon2id and ristretto255, for ParleyKit and ParleyServer alike.
        .target(name: "ParleyPassword", dependencies: ["CParleyPassword"]),
        // Codable request and response types; the socket's binary frames are protobuf (Protos/ParleyAPI).
        .target(name: "ParleyAPI", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // The encrypting SQLite VFS under the client database (XChaCha20-Poly1305 per page, libsodium) and the
        // passphrase KDF (Argon2id).
        .target(name: "CParleyDatabase", linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("sodium")]),
        .target(
            name: "ParleyServer",
            dependencies: [
                "ParleyAPI", "ParleyProtocol", "ParleyPassword",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                "ParleyGRPC",
                // Push providers (Web Push, APNs over HTTP/2, FCM) and the CAs they are trusted under.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Seed 002's gRPC key service (Protos/ParleyGRPC): generated messages, server protocol and client stubs.
        .target(
            name: "ParleyGRPC",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
            ]
        ),
        // What ParleyKit's server client and the operator's client share over AsyncHTTPClient: transport failures in
        // words, files streamed as request bodies.
        .target(name: "ParleyHTTP", dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")]),
        .target(
            name: "ParleyKit",
            dependencies: [
                "ParleyAPI", "ParleyHTTP", "ParleyProtocol", "CParleyDatabase", "ParleyPassword",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            // Only Storage/ imports GRDB (`internal import`); with member import visibility a file that does not import
            // it cannot call GRDB's members on a transaction either: the storage wall is the compiler's.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // What the client's local HTTP doors share: addresses, the loopback guard, bounded long responses.
        .target(
            name: "ParleyLocalService",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // signal-cli's JSON-RPC daemon (lines, sockets, HTTP) and signal-cli-rest-api's REST surface, on ParleyClient's
        // verbs: a typed table of methods, the REST routes on the same handlers.
        .target(
            name: "ParleyCompat",
            dependencies: [
                "ParleyKit", "ParleyAPI", "ParleyLocalService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `parley web`: the messenger in the browser, served by a local process on ParleyClient's verbs and events; its
        // page (plain HTML, CSS and JavaScript modules) embedded in the binary.
        .target(
            name: "ParleyWeb",
            dependencies: [
                "ParleyKit", "ParleyLocalService",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [
                .embedInCode("Assets/index.html"), .embedInCode("Assets/app.css"), .embedInCode("Assets/app.js"),
                .embedInCode("Assets/api.js"), .embedInCode("Assets/dom.js"), .embedInCode("Assets/voice.js"),
                .embedInCode("Assets/icon.svg"),
            ]
        ),
        .target(
            name: "ParleyCLI",
            dependencies: [
                "ParleyKit", "ParleyCompat", "ParleyWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "parley", dependencies: ["ParleyCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "parley-client-bench",
            dependencies: [
                "ParleyKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "parley-load",
            dependencies: [
                "ParleyKit", "ParleyAPI", "ParleyProtocol", "ParleyGRPC",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The operator's calls to a running server (`parley-server dcd|invites|accounts`): no client in them.
        .target(
            name: "ParleyOperatorClient",
            dependencies: ["ParleyAPI", "ParleyHTTP", .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .executableTarget(
            name: "parley-server",
            dependencies: [
                "ParleyServer", "ParleyAPI", "ParleyOperatorClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "parley-interop-peer", dependencies: ["ParleyProtocol"]),
        .executableTarget(
            name: "parley-demo",
            dependencies: [
                "ParleyProtocol", "ParleyKit", "ParleyServer", "ParleyAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: ["ParleyProtocol", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyInteropTests", dependencies: ["ParleyProtocol"]),
        // Parley's own tests written against LibSignalClient's documented API, importing only ParleyProtocol.
        .testTarget(name: "LibSignalClientAPITests", dependencies: ["ParleyProtocol"]),
        // Seed 002's Swift code, written for LibSignalClient, with only its import changed (Tests/Seed002PortTests).
        // Its `@Observable` needs Observation, which Apple's SDK imports with Foundation and Linux's does not; the
        // seed is Swift 5 code (its @MainActor service hands itself to nonisolated async calls), so the target is too.
        .testTarget(
            name: "Seed002PortTests",
            dependencies: ["ParleyProtocol"],
            exclude: ["README.md"],
            swiftSettings: [
                .swiftLanguageMode(.v5),
                .unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "Observation"]),
            ]
        ),
        .testTarget(
            name: "ParleyKitTests",
            dependencies: [
                "ParleyKit", "ParleyProtocol", "ParleyAPI", "ParleyServer", "ParleyTestSupport", "CParleyDatabase",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Vectors")]
        ),
        // The compatibility layer without a server: every signal-cli method and REST route against a client that
        // records what it is asked, and the doors' bounds.
        .testTarget(
            name: "ParleyCompatTests",
            // NIOCore and NIOPosix come with Hummingbird: loopback channels for the doors' holds.
            dependencies: [
                "ParleyCompat", "ParleyKit", "ParleyLocalService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // The local doors' shared parts (bounds on long responses) and `parley web`'s session and guard, without a server.
        .testTarget(
            name: "ParleyLocalServiceTests",
            // NIOCore and NIOPosix come with Hummingbird: loopback channels for the holds.
            dependencies: [
                "ParleyLocalService", "ParleyWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            resources: [.copy("Vectors")]
        ),
        // Shared by the server test targets: throwaway PostgreSQL databases.
        .target(
            name: "ParleyTestSupport",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/ParleyTestSupport"
        ),
        .testTarget(
            name: "ParleyServerIntegrationTests",
            dependencies: [
                "ParleyKit", "ParleyAPI", "ParleyProtocol", "ParleyTestSupport", "ParleyOperatorClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: [
                "ParleyServer", "ParleyAPI", "ParleyProtocol", "ParleyTestSupport", "ParleyPassword",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                "ParleyGRPC",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
