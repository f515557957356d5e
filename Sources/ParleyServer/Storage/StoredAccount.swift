import Foundation

/// An account as stored.
public struct StoredAccount: Sendable, Equatable {
    /// Lowercase UUID.
    public let id: String
    /// The plain name as registered (uniqueness is case-insensitive); `nil` for an account registered without one, and
    /// once an account that confirmed a username hash no longer needs it (``AccountStore/forgetAccountName(accountId:)``).
    public let username: String?
    /// The serialized identity key (33 bytes).
    public let identityKey: [UInt8]
    /// Disabled by the operator: none of its devices can authenticate.
    public let disabled: Bool
    /// The 16-byte key a sealed-sender send to this account must present (derived from its profile key by the client).
    public let unidentifiedAccessKey: [UInt8]?
    /// Sealed-sender sends are accepted whatever key they present.
    public let unrestrictedUnidentifiedAccess: Bool

    /// An account.
    public init(
        id: String, username: String?, identityKey: [UInt8], disabled: Bool = false,
        unidentifiedAccessKey: [UInt8]? = nil, unrestrictedUnidentifiedAccess: Bool = false
    ) {
        self.id = id
        self.username = username
        self.identityKey = identityKey
        self.disabled = disabled
        self.unidentifiedAccessKey = unidentifiedAccessKey
        self.unrestrictedUnidentifiedAccess = unrestrictedUnidentifiedAccess
    }
}
