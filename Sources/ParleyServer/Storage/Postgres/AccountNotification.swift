/// What a ``PostgresStore`` announces on the ``channel`` after it changed an account or its devices, so that every
/// server process sharing the database forgets its cached copy: the payload is `<instanceId> <accountId>`.
struct AccountNotification: Sendable, Equatable {
    /// The `LISTEN`/`NOTIFY` channel.
    static let channel = "parley_accounts"

    /// The store that made the change (its own notifications are ignored: it forgot its copy already).
    let instanceId: String
    /// The account that changed.
    let accountId: String

    /// A notification about account `accountId`.
    init(instanceId: String, accountId: String) {
        self.instanceId = instanceId
        self.accountId = accountId
    }

    /// Parses a payload made by ``payload``; `nil` when it is malformed.
    init?(payload: String) {
        let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(instanceId: String(parts[0]), accountId: String(parts[1]))
    }

    /// The `NOTIFY` payload.
    var payload: String { "\(instanceId) \(accountId)" }
}
