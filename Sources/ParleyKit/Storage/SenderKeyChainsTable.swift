import Foundation
internal import GRDB

/// The `sender_key_chains` table: which group and distribution each member device's sender-key chain belongs to, so
/// a group message finds its distribution by the chain id it carries. Its one owner.
enum SenderKeyChainsTable {
    /// Records that `chainId` of `accountId`'s device `deviceId` is `distributionId` in group `conversationId`.
    static func record(
        accountId: String, deviceId: UInt32, chainId: UInt32, conversationId: Int64, distributionId: UUID,
        _ db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO sender_key_chains (account_id, device_id, chain_id, thread_id, distribution_id) VALUES (?, ?, ?, ?, ?)
                """, arguments: [accountId, Int64(deviceId), Int64(chainId), conversationId, distributionId.uuidString.lowercased()])
    }

    /// The distribution of chain `chainId` of `accountId`'s device `deviceId`, if known.
    static func distribution(accountId: String, deviceId: UInt32, chainId: UInt32, _ db: Database) throws -> UUID? {
        try String.fetchOne(
            db, sql: "SELECT distribution_id FROM sender_key_chains WHERE account_id = ? AND device_id = ? AND chain_id = ?",
            arguments: [accountId, Int64(deviceId), Int64(chainId)]
        ).flatMap(UUID.init(uuidString:))
    }

    /// Distributions one member device may have in one group: a new one comes after every member removal, so an
    /// honest device has one, or a few while messages of the previous one are still on their way. A device handing out
    /// distribution after distribution (each may hold thousands of skipped message keys) keeps only its newest.
    static let maximumDistributionsPerDevice = 3

    /// Forgets the chains of `members` in group `conversationId`, with the sender keys they belong to (the members were
    /// removed, or this account left).
    static func forget(conversationId: Int64, members: Set<String>, _ db: Database) throws {
        for member in members {
            let distributions = try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT device_id, distribution_id FROM sender_key_chains WHERE thread_id = ? AND account_id = ?
                    """, arguments: [conversationId, member]
            ).compactMap(Self.distribution)
            try DatabaseProtocolStore.deleteSenderKeys(from: member, distributions, in: db)
            try db.execute(
                sql: "DELETE FROM sender_key_chains WHERE thread_id = ? AND account_id = ?", arguments: [conversationId, member])
        }
    }

    /// Forgets all but the newest ``maximumDistributionsPerDevice`` distributions of `accountId`'s device `deviceId` in
    /// group `conversationId`, with their sender keys. A chain recorded again moves to the end (`INSERT OR REPLACE` gives it
    /// a new row id), so row ids order the distributions by when their key last arrived.
    static func keepNewestDistributions(accountId: String, deviceId: UInt32, conversationId: Int64, _ db: Database) throws {
        let older = try Row.fetchAll(
            db,
            sql: """
                SELECT device_id, distribution_id FROM sender_key_chains WHERE account_id = ? AND device_id = ? AND thread_id = ?
                GROUP BY distribution_id ORDER BY max(rowid) DESC LIMIT -1 OFFSET ?
                """, arguments: [accountId, Int64(deviceId), conversationId, maximumDistributionsPerDevice]
        ).compactMap(Self.distribution)
        guard !older.isEmpty else { return }
        try DatabaseProtocolStore.deleteSenderKeys(from: accountId, older, in: db)
        for distribution in older {
            try db.execute(
                sql: "DELETE FROM sender_key_chains WHERE account_id = ? AND device_id = ? AND thread_id = ? AND distribution_id = ?",
                arguments: [accountId, Int64(deviceId), conversationId, distribution.distributionId.uuidString.lowercased()])
        }
    }

    private static func distribution(_ row: Row) -> (deviceId: UInt32, distributionId: UUID)? {
        UUID(uuidString: row["distribution_id"]).map { (UInt32(truncatingIfNeeded: row["device_id"] as Int64), $0) }
    }
}
