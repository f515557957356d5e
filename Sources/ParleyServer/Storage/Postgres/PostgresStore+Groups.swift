import Foundation
import PostgresNIO

extension PostgresStore {
    public func createGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool {
        try await transaction { connection in
            let inserted = try await count(
                """
                WITH inserted AS (
                    INSERT INTO stored_groups (id, version, state, updated)
                    VALUES (\(ByteBuffer(bytes: group.id)), \(Int64(group.version)), \(ByteBuffer(bytes: group.state)),
                            \(Self.bigint(group.updated)))
                    ON CONFLICT (id) DO NOTHING RETURNING 1
                ) SELECT count(*) FROM inserted
                """, on: connection)
            guard inserted == 1 else { return false }
            try await perform(
                """
                INSERT INTO group_changes (group_id, version, change, state)
                VALUES (\(ByteBuffer(bytes: group.id)), \(Int64(group.version)), \(ByteBuffer(bytes: change)),
                        \(ByteBuffer(bytes: group.state)))
                """, on: connection)
            return true
        }
    }

    public func group(id: [UInt8]) async throws -> StoredGroup? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT id, version, state, updated FROM stored_groups WHERE id = \(ByteBuffer(bytes: id))", logger: logger)
            for try await (id, version, state, updated) in rows.decode((ByteBuffer, Int64, ByteBuffer, Int64).self) {
                return StoredGroup(
                    id: Array(id.readableBytesView), version: UInt32(clamping: version), state: Array(state.readableBytesView),
                    updated: UInt64(clamping: updated))
            }
            return nil
        }
    }

    public func updateGroup(_ group: StoredGroup, change: [UInt8]) async throws -> Bool {
        guard group.version > 0 else { return false }
        return try await transaction { connection in
            // The revision check and the write are one statement; its row lock makes a concurrent change from the same
            // revision (in any process) wait and then match nothing, so exactly one of them lands.
            let updated = try await count(
                """
                WITH updated AS (
                    UPDATE stored_groups SET version = \(Int64(group.version)), state = \(ByteBuffer(bytes: group.state)),
                        updated = \(Self.bigint(group.updated))
                    WHERE id = \(ByteBuffer(bytes: group.id)) AND version = \(Int64(group.version - 1))
                    RETURNING 1
                ) SELECT count(*) FROM updated
                """, on: connection)
            guard updated == 1 else { return false }
            try await perform(
                """
                INSERT INTO group_changes (group_id, version, change, state)
                VALUES (\(ByteBuffer(bytes: group.id)), \(Int64(group.version)), \(ByteBuffer(bytes: change)),
                        \(ByteBuffer(bytes: group.state)))
                """, on: connection)
            return true
        }
    }

    public func groupChanges(id: [UInt8], from: UInt32, limit: Int) async throws -> [StoredGroupChange] {
        try await withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT version, change, state FROM group_changes
                WHERE group_id = \(ByteBuffer(bytes: id)) AND version >= \(Int64(from)) ORDER BY version LIMIT \(Int64(limit))
                """, logger: logger)
            var changes: [StoredGroupChange] = []
            for try await (version, change, state) in rows.decode((Int64, ByteBuffer, ByteBuffer).self) {
                changes.append(
                    StoredGroupChange(
                        version: UInt32(clamping: version), change: Array(change.readableBytesView), state: Array(state.readableBytesView)))
            }
            return changes
        }
    }
}
