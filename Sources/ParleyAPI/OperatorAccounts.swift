/// The operator's routes for registration invites and accounts (`Authorization: Bearer <operator token>`).
public enum OperatorRoutes {
    /// `POST` ``CreateInviteRequest`` → 201 ``InviteResponse``.
    public static let invites = "/v1/operator/invites"
    /// `GET` → ``OperatorAccountListResponse`` (`?after=<account id>&limit=<1…1000>`).
    public static let accounts = "/v1/operator/accounts"
    /// `DELETE`: delete the account with its devices, keys, mailboxes and backup.
    public static func account(_ accountId: String) -> String { "/v1/operator/accounts/\(accountId)" }
    /// `PUT` ``AccountDisabledRequest``: disable or enable the account.
    public static func accountDisabled(_ accountId: String) -> String { "/v1/operator/accounts/\(accountId)/disabled" }
}

/// `POST /v1/operator/invites`: a registration invite.
public struct CreateInviteRequest: Codable, Sendable, Equatable {
    /// Registrations it allows (1…10,000; default 1).
    public let uses: Int?
    /// Hours until it expires (1…8,760; default 168, a week).
    public let expiresInHours: Int?

    /// A request.
    public init(uses: Int? = nil, expiresInHours: Int? = nil) {
        self.uses = uses
        self.expiresInHours = expiresInHours
    }
}

/// A new invite: the token is shown once (the server keeps only its SHA-256).
public struct InviteResponse: Codable, Sendable, Equatable {
    /// What a new user passes as ``RegisterAccountRequest/inviteToken`` (`parley register --invite`).
    public let token: String
    /// Registrations it allows.
    public let uses: Int
    /// Milliseconds since 1970.
    public let expiresAt: UInt64

    /// An invite.
    public init(token: String, uses: Int, expiresAt: UInt64) {
        self.token = token
        self.uses = uses
        self.expiresAt = expiresAt
    }
}

/// One account as the operator sees it.
public struct OperatorAccount: Codable, Sendable, Equatable {
    /// The account id.
    public let accountId: String
    /// Its plain name as registered; `nil` for an account without one (it goes by a username the server keeps only as
    /// a hash).
    public let username: String?
    /// How many devices it has.
    public let devices: Int
    /// Milliseconds since 1970.
    public let created: UInt64
    /// Whether it is disabled.
    public let disabled: Bool

    /// An account.
    public init(accountId: String, username: String?, devices: Int, created: UInt64, disabled: Bool) {
        self.accountId = accountId
        self.username = username
        self.devices = devices
        self.created = created
        self.disabled = disabled
    }
}

/// `GET /v1/operator/accounts`: a page of accounts by id.
public struct OperatorAccountListResponse: Codable, Sendable, Equatable {
    /// The accounts, by id.
    public let accounts: [OperatorAccount]
    /// Pass as `after` for the next page; absent on the last one.
    public let next: String?

    /// A page.
    public init(accounts: [OperatorAccount], next: String?) {
        self.accounts = accounts
        self.next = next
    }
}

/// `PUT /v1/operator/accounts/{account}/disabled`.
public struct AccountDisabledRequest: Codable, Sendable, Equatable {
    /// `true` disables the account (its devices can no longer authenticate; open sockets close), `false` enables it.
    public let disabled: Bool

    /// A request.
    public init(disabled: Bool) { self.disabled = disabled }
}
