import Foundation
internal import GRDB

extension SQLiteStore {
    public func storeSends(_ sends: [StoredSend]) async throws -> [Bool] {
        try await database.write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO mailbox (guid, account_id, device_id, source_account_id, source_device_id, type, content,
                                         timestamp, server_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let record = try db.cachedStatement(
                sql: """
                    INSERT INTO idempotency_records (scope, key, fingerprint, server_timestamp) VALUES (?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """)
            var stored = Self.firstOfEachKey(sends)
            for (index, send) in sends.enumerated() where stored[index] {
                if let idempotency = send.idempotency {
                    try record.execute(arguments: [
                        idempotency.scope, idempotency.key, idempotency.fingerprint,
                        Int64(idempotency.serverTimestamp),
                    ])
                    guard db.changesCount == 1 else {
                        stored[index] = false
                        continue
                    }
                }
                for envelope in send.envelopes {
                    try insert.execute(
                        arguments: [
                            envelope.guid, envelope.accountId, Int64(envelope.deviceId), envelope.sourceAccountId,
                            envelope.sourceDeviceId.map { Int64($0) }, Int64(envelope.type), Data(envelope.content),
                            Int64(envelope.timestamp), Int64(envelope.serverTimestamp),
                        ])
                }
            }
            return stored
        }
    }

    public func idempotencyRecord(scope: String, key: String) async throws -> IdempotencyRecord? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT fingerprint, server_timestamp FROM idempotency_records WHERE scope = ? AND key = ?",
                arguments: [scope, key]
            ).map { row in
                IdempotencyRecord(
                    scope: scope, key: key, fingerprint: row["fingerprint"],
                    serverTimestamp: UInt64(clamping: row["server_timestamp"] as Int64))
            }
        }
    }

    public func deleteIdempotencyRecords(olderThan serverTime: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM idempotency_records WHERE server_timestamp < ?", arguments: [Int64(clamping: serverTime)])
            return db.changesCount
        }
    }

    public func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM mailbox WHERE account_id = ? AND device_id = ? AND server_timestamp >= ?
                    ORDER BY server_timestamp, rowid LIMIT ?
                    """, arguments: [accountId, Int64(deviceId), Int64(notBefore), limit]
            ).map { row in
                StoredEnvelope(
                    guid: row["guid"], accountId: row["account_id"], deviceId: UInt32(truncatingIfNeeded: row["device_id"] as Int64),
                    sourceAccountId: row["source_account_id"],
                    sourceDeviceId: (row["source_device_id"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                    type: UInt8(truncatingIfNeeded: row["type"] as Int64), content: [UInt8](row["content"] as Data),
                    timestamp: UInt64(row["timestamp"] as Int64), serverTimestamp: UInt64(row["server_timestamp"] as Int64))
            }
        }
    }

    public func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM mailbox WHERE guid = ? AND account_id = ? AND device_id = ?",
                arguments: [guid, accountId, Int64(deviceId)])
            return db.changesCount > 0
        }
    }

    public func deleteEnvelopes(_ acknowledgements: [DeviceAcknowledgements]) async throws -> [Int] {
        guard !acknowledgements.isEmpty else { return [] }
        return try await database.write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM mailbox WHERE guid = ? AND account_id = ? AND device_id = ?")
            return try acknowledgements.map { device in
                var deleted = 0
                for guid in device.guids {
                    try delete.execute(arguments: [guid, device.accountId, Int64(device.deviceId)])
                    deleted += db.changesCount
                }
                return deleted
            }
        }
    }

    public func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM mailbox WHERE server_timestamp < ?", arguments: [Int64(serverTime)])
            return db.changesCount
        }
    }

    public func mailboxDepth() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mailbox") ?? 0 }
    }
}
