/// `GET /v1/accounts/username_hash/{hash}`: the account whose username has the hash.
public struct AccountIdentifierResponse: Codable, Sendable, Equatable {
    /// The account id (lowercase UUID; Signal calls it `uuid`).
    public let uuid: String

    /// The answer naming account `uuid`.
    public init(uuid: String) { self.uuid = uuid }
}
