/// `POST /v1/accounts`: create an account with its first device.
public struct RegisterAccountRequest: Codable, Sendable {
    /// A plain account name (unique, case-insensitive; 3–32 characters of letters, digits, `.`, `_` and `-`), which the
    /// server stores and others look up as it is; `nil` registers without one: the account then goes by a username
    /// (`nickname.NN`) of which the server keeps only a hash (``UsernameRoutes``). New clients register without.
    public let username: String?
    /// The account's identity key (33 bytes, base64).
    public let identityKey: String
    /// The first device's registration id (1…16380).
    public let registrationId: UInt32
    /// The first device's credential: a random secret of 16–128 bytes, base64. The server keeps only a salted hash.
    public let password: String
    /// A name for the device.
    public let deviceName: String?
    /// The operator's invite, on a server started with `--registration token`.
    public let inviteToken: String?
    /// The account's unidentified access key (16 bytes, base64): what a sealed-sender send to it must present.
    public let unidentifiedAccessKey: String?
    /// Accept sealed-sender sends from anyone, with any access key.
    public let unrestrictedUnidentifiedAccess: Bool?

    /// A registration request.
    public init(
        username: String?, identityKey: String, registrationId: UInt32, password: String, deviceName: String?,
        inviteToken: String? = nil, unidentifiedAccessKey: String? = nil, unrestrictedUnidentifiedAccess: Bool? = nil
    ) {
        self.unidentifiedAccessKey = unidentifiedAccessKey
        self.unrestrictedUnidentifiedAccess = unrestrictedUnidentifiedAccess
        self.username = username
        self.identityKey = identityKey
        self.registrationId = registrationId
        self.password = password
        self.deviceName = deviceName
        self.inviteToken = inviteToken
    }
}
