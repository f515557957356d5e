/// Per-device mailboxes: envelopes waiting for their recipient device.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol MailboxStore: Sendable {
    /// Stores several sends in one transaction: all are stored or none. A send whose idempotency record's scope and key
    /// are already taken (by an earlier send, or an earlier one in `sends`) stores nothing.
    /// - Returns: for each send, whether it was stored (`false`: a repeat).
    func storeSends(_ sends: [StoredSend]) async throws -> [Bool]
    /// The idempotency record of `key` in `scope`, if a send stored it (and it has not expired).
    func idempotencyRecord(scope: String, key: String) async throws -> IdempotencyRecord?
    /// Deletes the idempotency records of sends stored before `serverTime`; returns how many.
    func deleteIdempotencyRecords(olderThan serverTime: UInt64) async throws -> Int
    /// Up to `limit` envelopes for the device, oldest first, none older than `notBefore` (server time).
    func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope]
    /// Deletes one envelope of the device; `false` when it has none with that guid.
    func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool
    /// Deletes what several devices acknowledged, in one transaction; returns how many envelopes were deleted for each
    /// element, in order.
    func deleteEnvelopes(_ acknowledgements: [DeviceAcknowledgements]) async throws -> [Int]
    /// Deletes every envelope accepted before `serverTime`; returns how many (a backend that drops whole partitions
    /// may report only the rows it deleted one by one).
    func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int
    /// Envelopes waiting in all mailboxes (for the `parley_mailbox_depth` gauge).
    func mailboxDepth() async throws -> Int
}

extension MailboxStore {
    /// Stores envelopes for several devices in one transaction: all are stored or none.
    public func storeEnvelopes(_ envelopes: [StoredEnvelope]) async throws {
        _ = try await storeSends([StoredSend(envelopes: envelopes)])
    }

    /// Which of `sends` a store must write: `false` for those whose scope and key an earlier one in the list already has
    /// (the store then checks the rest against what it holds).
    static func firstOfEachKey(_ sends: [StoredSend]) -> [Bool] {
        var seen = Set<[String]>()
        return sends.map { send in
            guard let record = send.idempotency else { return true }
            return seen.insert([record.scope, record.key]).inserted
        }
    }
}
