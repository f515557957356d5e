/// An account's username hash, and its username link's handle when it has one.
public struct UsernameHashResponse: Codable, Sendable, Equatable {
    /// The hash (unpadded base64url).
    public let usernameHash: String
    /// The username link's handle (a UUID), or `nil`.
    public let usernameLinkHandle: String?

    /// The hash and link handle of an account.
    public init(usernameHash: String, usernameLinkHandle: String?) {
        self.usernameHash = usernameHash
        self.usernameLinkHandle = usernameLinkHandle
    }
}
