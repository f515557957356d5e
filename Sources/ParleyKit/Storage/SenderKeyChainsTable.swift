import Foundation
import GRDB

/// The `sender_key_chains` table: which group and distribution each member device's sender-key chain belongs to, so
/// a group message finds its distribution by the chain id it carries. Its one owner.
enum SenderKeyChainsTable {
    /// Records that `chainId` of `accountId`'s device `deviceId` is `distributionId` in group `threadId`.
    static func record(accountId: String, deviceId: UInt32, chainId: UInt32, threadId: Int64, distributionId: UUID,
                       _ db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO sender_key_chains (account_id, device_id, chain_id, thread_id, distribution_id) VALUES (?, ?, ?, ?, ?)
            """, arguments: [accountId, Int64(deviceId), Int64(chainId), threadId, distributionId.uuidString.lowercased()])
    }

    /// The distribution of chain `chainId` of `accountId`'s device `deviceId`, if known.
    static func distribution(accountId: String, deviceId: UInt32, chainId: UInt32, _ db: Database) throws -> UUID? {
        try String.fetchOne(db, sql: "SELECT distribution_id FROM sender_key_chains WHERE account_id = ? AND device_id = ? AND chain_id = ?",
                            arguments: [accountId, Int64(deviceId), Int64(chainId)]).flatMap(UUID.init(uuidString:))
    }

    /// Forgets the chains of `members` in group `threadId` (they were removed).
    static func forget(threadId: Int64, members: Set<String>, _ db: Database) throws {
        for member in members {
            try db.execute(sql: "DELETE FROM sender_key_chains WHERE thread_id = ? AND account_id = ?", arguments: [threadId, member])
        }
    }
}
