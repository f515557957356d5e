/// Profile key commitments: what an account published for each version of its profile key.
public protocol ProfileStore: Sendable {
    /// Stores `commitment` for `accountId`'s profile key `version` (hex), replacing one stored for that version.
    func storeProfileKeyCommitment(accountId: String, version: String, commitment: [UInt8], created: UInt64) async throws
    /// The commitment `accountId` published for `version`, if any.
    func profileKeyCommitment(accountId: String, version: String) async throws -> [UInt8]?
}
