import Foundation
import ParleyAPI
import PostgresNIO

extension PostgresStore {
    public func setPushTarget(_ target: PushTarget, accountId: String, deviceId: UInt32, now: UInt64) async throws {
        let columns = PushTargetColumns(target)
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO push_targets (account_id, device_id, provider, address, p256dh, auth, topic, sandbox, registered, pushed_at)
                VALUES (\(accountId), \(Int64(deviceId)), \(columns.provider), \(columns.address), \(columns.p256dh), \(columns.auth),
                        \(columns.topic), \(columns.sandbox), \(Self.bigint(now)), NULL)
                ON CONFLICT (account_id, device_id) DO UPDATE SET provider = excluded.provider, address = excluded.address,
                    p256dh = excluded.p256dh, auth = excluded.auth, topic = excluded.topic, sandbox = excluded.sandbox,
                    registered = excluded.registered, pushed_at = NULL
                """, on: connection)
        }
    }

    public func pushTarget(accountId: String, deviceId: UInt32) async throws -> PushTarget? {
        try await withConnection { connection in
            try await firstPushTarget(
                connection.query(
                    """
                    SELECT provider, address, p256dh, auth, topic, sandbox FROM push_targets
                    WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId))
                    """, logger: logger))
        }
    }

    public func hasSignedPreKey(accountId: String, deviceId: UInt32) async throws -> Bool {
        try await withConnection { connection in
            try await exists(
                "SELECT EXISTS (SELECT 1 FROM signed_prekeys WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)))",
                on: connection)
        }
    }

    public func removePushTarget(accountId: String, deviceId: UInt32, matching: PushTarget?) async throws -> Bool {
        try await withConnection { connection in
            if let matching {
                let columns = PushTargetColumns(matching)
                return try await count(
                    """
                    WITH deleted AS (
                        DELETE FROM push_targets WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId))
                            AND provider = \(columns.provider) AND address = \(columns.address) RETURNING 1
                    ) SELECT count(*) FROM deleted
                    """, on: connection) > 0
            }
            return try await count(
                """
                WITH deleted AS (
                    DELETE FROM push_targets WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) RETURNING 1
                ) SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }

    public func claimPush(
        accountId: String, deviceId: UInt32, instanceId: String, now: UInt64, pushedBefore: UInt64,
        liveAfter: UInt64
    ) async throws -> PushClaim {
        try await transaction { connection in
            // FOR UPDATE: of two processes storing for the same device at once, the second waits and sees the first's push.
            let rows = try await connection.query(
                """
                SELECT provider, address, p256dh, auth, topic, sandbox, pushed_at,
                    EXISTS (SELECT 1 FROM signed_prekeys k WHERE k.account_id = t.account_id AND k.device_id = t.device_id),
                    EXISTS (SELECT 1 FROM device_sockets s WHERE s.account_id = t.account_id AND s.device_id = t.device_id
                                AND s.instance_id <> \(instanceId) AND s.seen > \(Self.bigint(liveAfter)))
                FROM push_targets t WHERE t.account_id = \(accountId) AND t.device_id = \(Int64(deviceId))
                FOR UPDATE OF t
                """, logger: logger)
            var found: (PushTarget, Int64?, Bool, Bool)?
            for try await (provider, address, p256dh, auth, topic, sandbox, pushedAt, hasKeys, online)
                in rows.decode((String, String, String?, String?, String?, Bool, Int64?, Bool, Bool).self)
            {
                if let target = PushTargetColumns(
                    provider: provider, address: address, p256dh: p256dh, auth: auth, topic: topic,
                    sandbox: sandbox
                ).target {
                    found = (target, pushedAt, hasKeys, online)
                }
            }
            guard let (target, pushedAt, hasKeys, online) = found, hasKeys else { return .notPushable }
            if online { return .online }
            if let pushedAt, pushedAt > Self.bigint(pushedBefore) { return .recentlyPushed(pushedAt: UInt64(pushedAt)) }
            try await perform(
                """
                UPDATE push_targets SET pushed_at = \(Self.bigint(now)) WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId))
                """, on: connection)
            return .claimed(target)
        }
    }

    public func recordSocketOpened(accountId: String, deviceId: UInt32, instanceId: String, now: UInt64) async throws {
        try await transaction { connection in
            try await perform(
                """
                INSERT INTO device_sockets (account_id, device_id, instance_id, seen)
                VALUES (\(accountId), \(Int64(deviceId)), \(instanceId), \(Self.bigint(now)))
                ON CONFLICT (account_id, device_id, instance_id) DO UPDATE SET seen = excluded.seen
                """, on: connection)
            try await perform(
                """
                UPDATE push_targets SET pushed_at = NULL
                WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) AND pushed_at IS NOT NULL
                """, on: connection)
        }
    }

    public func recordSocketClosed(accountId: String, deviceId: UInt32, instanceId: String) async throws {
        try await withConnection { connection in
            try await perform(
                """
                DELETE FROM device_sockets WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) AND instance_id = \(instanceId)
                """, on: connection)
        }
    }

    public func refreshSockets(instanceId: String, now: UInt64, staleBefore: UInt64) async throws {
        try await transaction { connection in
            try await perform("UPDATE device_sockets SET seen = \(Self.bigint(now)) WHERE instance_id = \(instanceId)", on: connection)
            try await perform("DELETE FROM device_sockets WHERE seen < \(Self.bigint(staleBefore))", on: connection)
        }
    }

    public func forgetSockets(instanceId: String) async throws {
        try await withConnection { connection in
            try await perform("DELETE FROM device_sockets WHERE instance_id = \(instanceId)", on: connection)
        }
    }

    /// The first row of `rows` as a push target.
    private func firstPushTarget(_ rows: PostgresRowSequence) async throws -> PushTarget? {
        for try await (provider, address, p256dh, auth, topic, sandbox) in rows.decode(
            (String, String, String?, String?, String?, Bool).self)
        {
            return PushTargetColumns(provider: provider, address: address, p256dh: p256dh, auth: auth, topic: topic, sandbox: sandbox)
                .target
        }
        return nil
    }
}
