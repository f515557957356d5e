/// `GET /v1/push/vapid-key`: the key the server signs its Web Push requests with (RFC 8292 VAPID).
public struct VAPIDKeyResponse: Codable, Sendable, Equatable {
    /// The P-256 public key, uncompressed (65 bytes), URL-safe base64 without padding: a subscription's
    /// `applicationServerKey`.
    public let publicKey: String

    /// A response carrying `publicKey`.
    public init(publicKey: String) { self.publicKey = publicKey }
}
