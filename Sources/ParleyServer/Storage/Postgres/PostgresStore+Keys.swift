import Foundation
import PostgresNIO

extension PostgresStore {
    public func storeKeys(_ upload: KeyUpload, accountId: String, deviceId: UInt32) async throws {
        let device = Int64(deviceId)
        try await transaction { connection in
            // Serializes uploads for the device, so the check that a KEM key id is not the other kind's stays true.
            try await perform(
                "SELECT 1 FROM devices WHERE account_id = \(accountId) AND device_id = \(device) FOR NO KEY UPDATE", on: connection)
            if let key = upload.signedPreKey {
                try await perform(
                    """
                    INSERT INTO signed_prekeys (account_id, device_id, key_id, public_key, signature)
                    VALUES (\(accountId), \(device), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)),
                            \(ByteBuffer(bytes: key.signature ?? [])))
                    ON CONFLICT (account_id, device_id) DO UPDATE
                    SET key_id = excluded.key_id, public_key = excluded.public_key, signature = excluded.signature
                    """, on: connection)
            }
            for key in upload.preKeys {
                try await perform(
                    """
                    INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key)
                    VALUES (\(accountId), \(device), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)))
                    ON CONFLICT (account_id, device_id, key_id) DO UPDATE SET public_key = excluded.public_key
                    """, on: connection)
            }
            let kemKeys = upload.kemPreKeys.map { ($0, false) } + (upload.lastResortKemPreKey.map { [($0, true)] } ?? [])
            for (key, lastResort) in kemKeys {
                try await storeKemKey(key, lastResort: lastResort, accountId: accountId, deviceId: device, on: connection)
            }
        }
    }

    public func preKeyCounts(accountId: String, deviceId: UInt32) async throws -> (oneTime: Int, kem: Int) {
        let device = Int64(deviceId)
        return try await withConnection { connection in
            let oneTime = try await count(
                "SELECT count(*) FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(device)", on: connection)
            let kem = try await count(
                "SELECT count(*) FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(device) AND NOT last_resort",
                on: connection)
            return (oneTime: oneTime, kem: kem)
        }
    }

    public func claimBundles(accountId: String, deviceIds: [UInt32]?) async throws -> [ClaimedBundle] {
        try await transaction { connection in
            let all = try await devices(
                "\(unescaped: Self.deviceColumns) WHERE account_id = \(accountId) ORDER BY device_id", on: connection)
            var bundles: [ClaimedBundle] = []
            for device in all where deviceIds?.contains(device.deviceId) ?? true {
                if let bundle = try await claim(for: device, on: connection) { bundles.append(bundle) }
            }
            return bundles
        }
    }

    func storeKemKey(
        _ key: StoredPreKey, lastResort: Bool, accountId: String, deviceId: Int64, on connection: PostgresConnection
    ) async throws {
        let otherKind = try await exists(
            """
            SELECT EXISTS (SELECT 1 FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
                           AND key_id = \(Int64(key.keyId)) AND last_resort = \(!lastResort))
            """, on: connection)
        if otherKind { throw ServerStoreError.kemKeyIdInUse(key.keyId) }
        if lastResort {
            try await perform(
                "DELETE FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND last_resort", on: connection)
        }
        try await perform(
            """
            INSERT INTO kem_prekeys (account_id, device_id, key_id, public_key, signature, last_resort)
            VALUES (\(accountId), \(deviceId), \(Int64(key.keyId)), \(ByteBuffer(bytes: key.publicKey)),
                    \(ByteBuffer(bytes: key.signature ?? [])), \(lastResort))
            ON CONFLICT (account_id, device_id, key_id) DO UPDATE
            SET public_key = excluded.public_key, signature = excluded.signature, last_resort = excluded.last_resort
            """, on: connection)
    }

    /// The device's bundle, its one-time keys deleted; `nil` without a signed prekey.
    func claim(for device: StoredDevice, on connection: PostgresConnection) async throws -> ClaimedBundle? {
        let accountId = device.accountId
        let deviceId = Int64(device.deviceId)
        guard
            let signedPreKey = try await preKeys(
                """
                SELECT key_id, public_key, signature FROM signed_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
                """, signed: true, on: connection
            ).first
        else { return nil }
        // SKIP LOCKED: a concurrent claim takes the next key instead of waiting for this one and then finding it gone.
        let preKey = try await preKeys(
            """
            DELETE FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND key_id = (
                SELECT key_id FROM one_time_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId)
                ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING key_id, public_key
            """, signed: false, on: connection
        ).first
        var kemPreKey = try await preKeys(
            """
            DELETE FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND key_id = (
                SELECT key_id FROM kem_prekeys WHERE account_id = \(accountId) AND device_id = \(deviceId) AND NOT last_resort
                ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING key_id, public_key, signature
            """, signed: true, on: connection
        ).first
        if kemPreKey == nil {
            kemPreKey = try await preKeys(
                """
                SELECT key_id, public_key, signature FROM kem_prekeys
                WHERE account_id = \(accountId) AND device_id = \(deviceId) AND last_resort ORDER BY key_id LIMIT 1
                """, signed: true, on: connection
            ).first
        }
        return ClaimedBundle(device: device, signedPreKey: signedPreKey, preKey: preKey, kemPreKey: kemPreKey)
    }

    /// Rows of `key_id, public_key` and, when `signed`, `signature`.
    func preKeys(_ query: PostgresQuery, signed: Bool, on connection: PostgresConnection) async throws -> [StoredPreKey] {
        var keys: [StoredPreKey] = []
        let rows = try await connection.query(query, logger: logger)
        if signed {
            for try await (keyId, publicKey, signature) in rows.decode((Int64, ByteBuffer, ByteBuffer).self) {
                keys.append(
                    StoredPreKey(
                        keyId: UInt32(truncatingIfNeeded: keyId), publicKey: Array(publicKey.readableBytesView),
                        signature: Array(signature.readableBytesView)))
            }
        } else {
            for try await (keyId, publicKey) in rows.decode((Int64, ByteBuffer).self) {
                keys.append(
                    StoredPreKey(keyId: UInt32(truncatingIfNeeded: keyId), publicKey: Array(publicKey.readableBytesView), signature: nil))
            }
        }
        return keys
    }
}
