/// Per-device mailboxes: envelopes waiting for their recipient device.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol MailboxStore: Sendable {
    /// Stores envelopes for several devices in one transaction: all are stored or none.
    func storeEnvelopes(_ envelopes: [StoredEnvelope]) async throws
    /// Up to `limit` envelopes for the device, oldest first, none older than `notBefore` (server time).
    func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope]
    /// Deletes one envelope of the device; `false` when it has none with that guid.
    func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool
    /// Deletes several envelopes of one device in one transaction (acknowledgements in a batch); returns how many.
    func deleteEnvelopes(guids: [String], accountId: String, deviceId: UInt32) async throws -> Int
    /// Deletes every envelope accepted before `serverTime`; returns how many (a backend that drops whole partitions
    /// may report only the rows it deleted one by one).
    func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int
    /// Envelopes waiting in all mailboxes (for the `parley_mailbox_depth` gauge).
    func mailboxDepth() async throws -> Int
}
