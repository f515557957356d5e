/// `GET /v1/certificate/trust-root`: the public key sender certificates lead to. A client that pins the key in its
/// configuration (as Signal's apps ship theirs) need not ask.
public struct SealedSenderTrustRootResponse: Codable, Sendable, Equatable {
    /// The trust root's serialized public key (33 bytes, base64).
    public let trustRoot: String

    /// A response carrying `trustRoot` (base64).
    public init(trustRoot: String) { self.trustRoot = trustRoot }
}
