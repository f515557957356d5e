/// What `storeEnvelopes` announces on the ``channel`` once per recipient device, so that every server process
/// sharing the database can wake that device's connection: the payload is `<instanceId> <accountId>.<deviceId>`.
struct MailboxNotification: Sendable, Equatable {
    /// The `LISTEN`/`NOTIFY` channel.
    static let channel = "parley_mailbox"

    /// The ``PostgresStore`` that stored the envelopes (its own notifications are ignored).
    let instanceId: String
    /// The recipient account.
    let accountId: String
    /// The recipient device.
    let deviceId: UInt32

    /// A notification about new mail for one device.
    init(instanceId: String, accountId: String, deviceId: UInt32) {
        self.instanceId = instanceId
        self.accountId = accountId
        self.deviceId = deviceId
    }

    /// Parses a payload made by ``payload``; `nil` when it is malformed.
    init?(payload: String) {
        guard let space = payload.firstIndex(of: " "), let dot = payload.lastIndex(of: "."), space < dot else { return nil }
        let instanceId = payload[..<space]
        let accountId = payload[payload.index(after: space)..<dot]
        guard !instanceId.isEmpty, !accountId.isEmpty, !accountId.contains(" "),
            let deviceId = UInt32(payload[payload.index(after: dot)...])
        else { return nil }
        self.init(instanceId: String(instanceId), accountId: String(accountId), deviceId: deviceId)
    }

    /// The `NOTIFY` payload.
    var payload: String { "\(instanceId) \(accountId).\(deviceId)" }
}
