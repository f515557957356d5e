/// `PUT /v1/accounts/username_hash/reserve`: candidate username hashes, in order of preference.
public struct ReserveUsernameHashRequest: Codable, Sendable, Equatable {
    /// The most candidates one request may name (Signal's limit; `Username.candidates` makes twenty).
    public static let maximumCandidates = 20

    /// Each candidate's hash (32 bytes, unpadded base64url).
    public let usernameHashes: [String]

    /// A request for the first free hash of `usernameHashes`.
    public init(usernameHashes: [String]) { self.usernameHashes = usernameHashes }
}
