/// The hash reserved for the account, one of the candidates it sent.
public struct ReserveUsernameHashResponse: Codable, Sendable, Equatable {
    /// The reserved hash (unpadded base64url).
    public let usernameHash: String

    /// A reservation of `usernameHash`.
    public init(usernameHash: String) { self.usernameHash = usernameHash }
}
