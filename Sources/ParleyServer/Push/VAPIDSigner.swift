import Crypto
import Foundation
import ParleyAPI

/// Voluntary Application Server Identification (RFC 8292): the server's P-256 key signs a short-lived JWT for each
/// push service origin, so a push service can tell this server's requests from anyone else's.
public struct VAPIDSigner: Sendable {
    /// The signing key (kept in `vapid.key` in the data directory).
    let key: P256.Signing.PrivateKey
    /// Who runs the server: a `mailto:` or `https:` URI push services may contact (the JWT's `sub`).
    public let subject: String
    /// The contact used when the operator names none.
    public static let defaultSubject = "mailto:postmaster@localhost"
    /// How long a token is valid (RFC 8292 allows at most 24 hours).
    let lifetimeSeconds: Int64 = 12 * 3600

    /// A signer with the 32-byte private scalar `rawKey` and the contact `subject`.
    ///
    /// - Throws: ``PushConfigurationError/invalidVAPIDKey`` when `rawKey` is not a P-256 scalar,
    ///   ``PushConfigurationError/invalidVAPIDSubject(_:)`` when `subject` is not a `mailto:` or `https:` URI.
    public init(rawKey: [UInt8], subject: String) throws {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: rawKey) else { throw PushConfigurationError.invalidVAPIDKey }
        guard subject.hasPrefix("mailto:") || subject.hasPrefix("https://"), subject.utf8.count <= 256 else {
            throw PushConfigurationError.invalidVAPIDSubject(subject)
        }
        self.key = key
        self.subject = subject
    }

    /// The public key, uncompressed and URL-safe base64 (the `k` parameter, a subscription's application server key).
    public var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }

    /// The endpoint's origin as push services compare it (RFC 6454): scheme and host in lower case, an IPv6 host in
    /// brackets, the port only when it is not the scheme's default.
    static func origin(of endpoint: URL) throws -> String {
        guard let scheme = endpoint.scheme?.lowercased(), var host = endpoint.host?.lowercased(), !host.isEmpty else {
            throw PushConfigurationError.invalidEndpoint(endpoint.absoluteString)
        }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        guard let port = endpoint.port, port != defaultPort else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    /// The `Authorization` header for a request to `endpoint`: `vapid t=<JWT>, k=<public key>` (RFC 8292 §3).
    func authorization(for endpoint: URL, now: Date) throws -> String {
        let token = try JSONWebToken.es256(
            header: [:],
            claims: [
                "aud": .string(try Self.origin(of: endpoint)), "exp": .integer(Int64(now.timeIntervalSince1970) + lifetimeSeconds),
                "sub": .string(subject),
            ], key: key)
        return "vapid t=\(token), k=\(publicKey)"
    }
}
