/// `GET /v1/profile/{aci}/{version}/{credentialRequest}`: an expiring profile key credential, as Signal-Server's
/// profile answer carries it.
public struct ProfileKeyCredentialResponse: Codable, Sendable, Equatable {
    /// The serialized `ExpiringProfileKeyCredentialResponse` (base64).
    public let credential: String

    /// A response carrying `credential`.
    public init(credential: String) {
        self.credential = credential
    }
}
