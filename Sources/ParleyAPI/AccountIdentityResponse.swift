/// `GET /v1/accounts/whoami`: the calling account as the server knows it (Signal's `AccountIdentityResponse`, with a
/// plain name in place of a phone number).
public struct AccountIdentityResponse: Codable, Sendable, Equatable {
    /// The account id (lowercase UUID).
    public let uuid: String
    /// The account's plain name as registered; `nil` when it has none (it goes by a username).
    public let accountName: String?
    /// The hash of the account's confirmed username (unpadded base64url), if it has one.
    public let usernameHash: String?
    /// The handle of the account's username link, if it has one.
    public let usernameLinkHandle: String?
    /// Whether the server asks accounts with a plain name to take a username instead, after which it deletes the name:
    /// `allowed` or `retired` (`parley-server --plain-account-names`).
    public let plainAccountNames: String

    /// A response.
    public init(uuid: String, accountName: String?, usernameHash: String?, usernameLinkHandle: String?, plainAccountNames: String) {
        self.uuid = uuid
        self.accountName = accountName
        self.usernameHash = usernameHash
        self.usernameLinkHandle = usernameLinkHandle
        self.plainAccountNames = plainAccountNames
    }
}
