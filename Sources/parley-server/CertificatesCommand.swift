import ArgumentParser
import Foundation
import ParleyServer

/// `parley-server certificates init|rotate|show`: the sealed-sender trust root and server certificate in the data
/// directory (the files are described in docs/SERVER.md).
struct CertificatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certificates", abstract: "Make, rotate or show the sealed-sender trust root and server certificate.",
        subcommands: [Initialize.self, Rotate.self, Show.self])

    /// Where the keys live (the server's data directory).
    struct Location: ParsableArguments {
        @Option(help: "The server's data directory (environment: PARLEY_DATA_DIR).")
        var dataDirectory = ProcessInfo.processInfo.environment["PARLEY_DATA_DIR"] ?? "./parley-data"

        var url: URL { URL(fileURLWithPath: dataDirectory) }
    }

    struct Initialize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Make the trust root, a server key and its certificate unless they exist (serve does this on first start).")

        @OptionGroup var location: Location

        func run() throws {
            try FileManager.default.createDirectory(at: location.url, withIntermediateDirectories: true)
            Show.print(try SealedSenderKeyFiles.load(in: location.url))
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new server key and certificate (next key id), signed by the trust root; restart servers to use it.")

        @OptionGroup var location: Location
        @Option(help: "The trust root's private key, when it is kept outside the data directory.")
        var trustRootKey: String?

        func run() throws {
            Show.print(try SealedSenderKeyFiles.rotate(in: location.url, trustRootKeyFile: trustRootKey.map { URL(fileURLWithPath: $0) }))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the trust root (for clients to pin) and the server certificate's key id (making them first if there are none)."
        )

        @OptionGroup var location: Location

        func run() throws {
            Show.print(try SealedSenderKeyFiles.load(in: location.url))
        }

        static func print(_ settings: SealedSenderSettings) {
            Swift.print("trust root: \(settings.trustRoot.serialize().base64EncodedString())")
            Swift.print(
                "server certificate: key id \(settings.serverCertificate.keyId), key \(settings.serverCertificate.publicKey.serialize().base64EncodedString())"
            )
        }
    }
}
