/// `PUT /v1/accounts/username_hash/confirm`: the reserved hash, a proof of knowing what it opens to (the username's
/// three scalars), and optionally the username encrypted for a link.
public struct ConfirmUsernameHashRequest: Codable, Sendable, Equatable {
    /// The reserved hash (unpadded base64url).
    public let usernameHash: String
    /// `Username.generateProof()` for it (unpadded base64url).
    public let zkProof: String
    /// An encrypted username (`Username.createLink()`'s second half, unpadded base64url) to store as the account's
    /// username link in the same step, or `nil`.
    public let encryptedUsername: String?

    /// A confirmation of `usernameHash` proved by `zkProof`.
    public init(usernameHash: String, zkProof: String, encryptedUsername: String? = nil) {
        self.usernameHash = usernameHash
        self.zkProof = zkProof
        self.encryptedUsername = encryptedUsername
    }
}
