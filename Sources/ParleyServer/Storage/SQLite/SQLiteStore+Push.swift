import Foundation
internal import GRDB
import ParleyAPI

extension SQLiteStore {
    public func setPushTarget(_ target: PushTarget, accountId: String, deviceId: UInt32, now: UInt64) async throws {
        let columns = PushTargetColumns(target)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO push_targets (account_id, device_id, provider, address, p256dh, auth, topic, sandbox, registered, pushed_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
                    ON CONFLICT (account_id, device_id) DO UPDATE SET provider = excluded.provider, address = excluded.address,
                        p256dh = excluded.p256dh, auth = excluded.auth, topic = excluded.topic, sandbox = excluded.sandbox,
                        registered = excluded.registered, pushed_at = NULL
                    """,
                arguments: [
                    accountId, Int64(deviceId), columns.provider, columns.address, columns.p256dh, columns.auth,
                    columns.topic, columns.sandbox, Int64(now),
                ])
        }
    }

    public func pushTarget(accountId: String, deviceId: UInt32) async throws -> PushTarget? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT provider, address, p256dh, auth, topic, sandbox FROM push_targets WHERE account_id = ? AND device_id = ?
                    """, arguments: [accountId, Int64(deviceId)]
            ).flatMap(Self.pushTarget)
        }
    }

    public func hasSignedPreKey(accountId: String, deviceId: UInt32) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM signed_prekeys WHERE account_id = ? AND device_id = ?)",
                arguments: [accountId, Int64(deviceId)]) ?? false
        }
    }

    public func removePushTarget(accountId: String, deviceId: UInt32, matching: PushTarget?) async throws -> Bool {
        try await database.write { db in
            if let matching {
                let columns = PushTargetColumns(matching)
                try db.execute(
                    sql: "DELETE FROM push_targets WHERE account_id = ? AND device_id = ? AND provider = ? AND address = ?",
                    arguments: [accountId, Int64(deviceId), columns.provider, columns.address])
            } else {
                try db.execute(
                    sql: "DELETE FROM push_targets WHERE account_id = ? AND device_id = ?", arguments: [accountId, Int64(deviceId)])
            }
            return db.changesCount > 0
        }
    }

    public func claimPush(
        accountId: String, deviceId: UInt32, instanceId: String, now: UInt64, pushedBefore: UInt64,
        liveAfter: UInt64
    ) async throws -> PushClaim {
        try await database.write { db in
            // Seed 004's rule (a push only to a device with keys), presence on other processes and the window, read and
            // decided in the write transaction that records the push.
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT provider, address, p256dh, auth, topic, sandbox, pushed_at,
                            EXISTS (SELECT 1 FROM signed_prekeys k WHERE k.account_id = t.account_id AND k.device_id = t.device_id) AS has_keys,
                            EXISTS (SELECT 1 FROM device_sockets s WHERE s.account_id = t.account_id AND s.device_id = t.device_id
                                        AND s.instance_id <> ? AND s.seen > ?) AS online
                        FROM push_targets t WHERE t.account_id = ? AND t.device_id = ?
                        """, arguments: [instanceId, Int64(clamping: liveAfter), accountId, Int64(deviceId)]),
                let target = Self.pushTarget(row), row["has_keys"] as Bool
            else { return .notPushable }
            if row["online"] as Bool { return .online }
            if let pushedAt = row["pushed_at"] as Int64?, pushedAt > Int64(clamping: pushedBefore) {
                return .recentlyPushed(pushedAt: UInt64(pushedAt))
            }
            try db.execute(
                sql: "UPDATE push_targets SET pushed_at = ? WHERE account_id = ? AND device_id = ?",
                arguments: [Int64(clamping: now), accountId, Int64(deviceId)])
            return .claimed(target)
        }
    }

    public func recordSocketOpened(accountId: String, deviceId: UInt32, instanceId: String, now: UInt64) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO device_sockets (account_id, device_id, instance_id, seen) VALUES (?, ?, ?, ?)
                    ON CONFLICT (account_id, device_id, instance_id) DO UPDATE SET seen = excluded.seen
                    """, arguments: [accountId, Int64(deviceId), instanceId, Int64(now)])
            try db.execute(
                sql: "UPDATE push_targets SET pushed_at = NULL WHERE account_id = ? AND device_id = ? AND pushed_at IS NOT NULL",
                arguments: [accountId, Int64(deviceId)])
        }
    }

    public func recordSocketClosed(accountId: String, deviceId: UInt32, instanceId: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM device_sockets WHERE account_id = ? AND device_id = ? AND instance_id = ?",
                arguments: [accountId, Int64(deviceId), instanceId])
        }
    }

    public func refreshSockets(instanceId: String, now: UInt64, staleBefore: UInt64) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE device_sockets SET seen = ? WHERE instance_id = ?", arguments: [Int64(now), instanceId])
            try db.execute(sql: "DELETE FROM device_sockets WHERE seen < ?", arguments: [Int64(staleBefore)])
        }
    }

    public func forgetSockets(instanceId: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM device_sockets WHERE instance_id = ?", arguments: [instanceId])
        }
    }

    private static func pushTarget(_ row: Row) -> PushTarget? {
        PushTargetColumns(
            provider: row["provider"], address: row["address"], p256dh: row["p256dh"], auth: row["auth"],
            topic: row["topic"], sandbox: row["sandbox"]
        ).target
    }
}
