/// What creating an account came to.
public enum AccountCreation: Sendable, Equatable {
    /// Created.
    case created
    /// The username is taken (in any case).
    case usernameTaken
    /// The invite is unknown, used up or expired.
    case inviteRefused
}

/// A registration invite as stored: the token's SHA-256, never the token.
public struct StoredInvite: Sendable, Equatable {
    /// SHA-256 of the token.
    public let tokenHash: [UInt8]
    /// Registrations it still allows.
    public let usesLeft: Int
    /// Milliseconds since 1970 after which it is refused.
    public let expires: UInt64
    /// Milliseconds since 1970.
    public let created: UInt64

    /// An invite.
    public init(tokenHash: [UInt8], usesLeft: Int, expires: UInt64, created: UInt64) {
        self.tokenHash = tokenHash
        self.usesLeft = usesLeft
        self.expires = expires
        self.created = created
    }
}

/// One account as the operator lists it.
public struct AccountSummary: Sendable, Equatable {
    /// The account id.
    public let id: String
    /// Its plain name as registered, `nil` for an account without one.
    public let username: String?
    /// How many devices it has.
    public let devices: Int
    /// Milliseconds since 1970.
    public let created: UInt64
    /// Whether the operator disabled it.
    public let disabled: Bool

    /// A summary.
    public init(id: String, username: String?, devices: Int, created: UInt64, disabled: Bool) {
        self.id = id
        self.username = username
        self.devices = devices
        self.created = created
        self.disabled = disabled
    }
}
