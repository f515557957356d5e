import Foundation
internal import GRDB

extension SQLiteStore {
    public func createGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO stored_groups (id, version, state, updated) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                arguments: [Data(group.id), Int64(group.version), Data(group.state), Int64(clamping: group.updated)])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "INSERT INTO group_changes (group_id, version, change, state) VALUES (?, ?, ?, ?)",
                arguments: [Data(group.id), Int64(group.version), Data(change), Data(group.state)])
            return true
        }
    }

    public func group(id: [UInt8]) async throws -> StoredGroup? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, version, state, updated FROM stored_groups WHERE id = ?", arguments: [Data(id)]).map {
                row in
                StoredGroup(
                    id: Array(row["id"] as Data), version: UInt32(clamping: row["version"] as Int64), state: Array(row["state"] as Data),
                    updated: UInt64(clamping: row["updated"] as Int64))
            }
        }
    }

    public func updateGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool {
        guard group.version > 0 else { return false }
        return try await database.write { db in
            // The revision check and the write are one statement inside one write transaction: SQLite serializes
            // writers, so of two changes made from one revision exactly one lands.
            try db.execute(
                sql: "UPDATE stored_groups SET version = ?, state = ?, updated = ? WHERE id = ? AND version = ?",
                arguments: [
                    Int64(group.version), Data(group.state), Int64(clamping: group.updated), Data(group.id), Int64(group.version - 1),
                ])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql: "INSERT INTO group_changes (group_id, version, change, state) VALUES (?, ?, ?, ?)",
                arguments: [Data(group.id), Int64(group.version), Data(change), Data(group.state)])
            return true
        }
    }

    public func groupChanges(id: [UInt8], from: UInt32, limit: Int) async throws -> [StoredGroupChange] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT version, change, state FROM group_changes WHERE group_id = ? AND version >= ? ORDER BY version LIMIT ?",
                arguments: [Data(id), Int64(from), limit]
            ).map { row in
                StoredGroupChange(
                    version: UInt32(clamping: row["version"] as Int64), change: Array(row["change"] as Data),
                    state: Array(row["state"] as Data))
            }
        }
    }
}
