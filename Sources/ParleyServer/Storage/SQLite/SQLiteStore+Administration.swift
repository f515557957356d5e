import Foundation
internal import GRDB

extension SQLiteStore {
    public func createInvite(_ invite: StoredInvite) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO invites (token_hash, uses_left, expires, created) VALUES (?, ?, ?, ?)",
                arguments: [Data(invite.tokenHash), invite.usesLeft, Int64(clamping: invite.expires), Int64(clamping: invite.created)])
        }
    }

    public func accountSummaries(after: String?, limit: Int) async throws -> [AccountSummary] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.id, a.username, a.created, a.disabled, (SELECT count(*) FROM devices d WHERE d.account_id = a.id) AS devices
                    FROM accounts a WHERE a.id > ? ORDER BY a.id LIMIT ?
                    """, arguments: [after ?? "", max(limit, 0)]
            ).map { row in
                AccountSummary(
                    id: row["id"], username: row["username"], devices: row["devices"],
                    created: UInt64(max(row["created"] as Int64, 0)), disabled: (row["disabled"] as Int64) != 0)
            }
        }
    }

    public func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool {
        defer { accounts.invalidate(id) }
        return try await database.write { db in
            try db.execute(sql: "UPDATE accounts SET disabled = ? WHERE id = ?", arguments: [disabled ? 1 : 0, id])
            return db.changesCount > 0
        }
    }

    public func deleteAccount(id: String) async throws -> Bool {
        defer { accounts.invalidate(id) }
        return try await database.write { db in
            // Foreign keys cascade to devices (and from them to prekeys and mailboxes), link codes and the backup.
            try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
