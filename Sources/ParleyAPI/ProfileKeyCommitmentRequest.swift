/// `PUT /v1/profile/commitment`: the commitment to one version of the account's profile key.
public struct ProfileKeyCommitmentRequest: Codable, Sendable, Equatable {
    /// The profile key's version for the account (`ProfileKey.getProfileKeyVersion`): 64 hex characters.
    public let version: String
    /// The serialized `ProfileKeyCommitment` (base64).
    public let commitment: String

    /// A request publishing `commitment` for `version`.
    public init(version: String, commitment: String) {
        self.version = version
        self.commitment = commitment
    }
}
