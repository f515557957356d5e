/// A username encrypted for a username link (`Username.createLink()`'s second half): what the server keeps under the
/// link's handle and cannot read.
public struct EncryptedUsername: Codable, Sendable, Equatable {
    /// The most bytes an encrypted username may have (a link's is 112).
    public static let maximumBytes = 128

    /// The encrypted username (unpadded base64url).
    public let usernameLinkEncryptedValue: String
    /// On `PUT`: keep the current handle instead of making a new one (`nil` is `false`).
    public let keepLinkHandle: Bool?

    /// An encrypted username.
    public init(usernameLinkEncryptedValue: String, keepLinkHandle: Bool? = nil) {
        self.usernameLinkEncryptedValue = usernameLinkEncryptedValue
        self.keepLinkHandle = keepLinkHandle
    }
}
