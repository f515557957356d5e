import Crypto
import Foundation

/// The operator's Apple Push Notification service credentials: a token signing key (`.p8`) with its key id and team
/// id, and the two environments' addresses.
public struct APNsConfiguration: Sendable {
    /// The token signing key.
    let key: P256.Signing.PrivateKey
    /// The key's 10-character id (the JWT's `kid`).
    public let keyId: String
    /// The developer team's 10-character id (the JWT's `iss`).
    public let teamId: String
    /// Where production tokens are pushed.
    public let productionURL: String
    /// Where development (sandbox) tokens are pushed.
    public let sandboxURL: String

    /// Apple's production endpoint.
    public static let appleProductionURL = "https://api.push.apple.com"
    /// Apple's development endpoint.
    public static let appleSandboxURL = "https://api.sandbox.push.apple.com"

    /// Credentials from the PEM contents of a `.p8` key.
    ///
    /// - Throws: ``PushConfigurationError`` for a key that is not P-256, ids that are not 10 characters of A–Z/0–9, or
    ///   URLs that are not absolute https.
    public init(
        keyPEM: String, keyPath: String, keyId: String, teamId: String,
        productionURL: String = appleProductionURL, sandboxURL: String = appleSandboxURL
    ) throws {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM) else {
            throw PushConfigurationError.invalidAPNsKey(path: keyPath)
        }
        for identifier in [keyId, teamId] where !Self.isAppleIdentifier(identifier) {
            throw PushConfigurationError.invalidAPNsIdentifier(identifier)
        }
        for url in [productionURL, sandboxURL] where !url.hasPrefix("https://") || URL(string: url)?.host == nil {
            throw PushConfigurationError.invalidEndpoint(url)
        }
        self.key = key
        self.keyId = keyId
        self.teamId = teamId
        self.productionURL = productionURL.hasSuffix("/") ? String(productionURL.dropLast()) : productionURL
        self.sandboxURL = sandboxURL.hasSuffix("/") ? String(sandboxURL.dropLast()) : sandboxURL
    }

    private static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) }
    }
}
