/// `GET /v1/accounts/username/{username}` and `GET /v1/accounts/{accountId}`: an account and its username.
public struct AccountLookupResponse: Codable, Sendable, Equatable {
    /// The account id (lowercase UUID).
    public let accountId: String
    /// The account's plain name as registered, or the username the caller looked it up by; `nil` for an account looked
    /// up by id that has no plain name (it goes by a username the server never reads).
    public let username: String?

    /// A lookup result.
    public init(accountId: String, username: String?) {
        self.accountId = accountId
        self.username = username
    }
}
