/// `GET /v1/accounts/username/{username}` and `GET /v1/accounts/{accountId}`: an account and its username.
public struct AccountLookupResponse: Codable, Sendable, Equatable {
    /// The account id (lowercase UUID).
    public let accountId: String
    /// The username as registered.
    public let username: String

    /// A lookup result.
    public init(accountId: String, username: String) {
        self.accountId = accountId
        self.username = username
    }
}
