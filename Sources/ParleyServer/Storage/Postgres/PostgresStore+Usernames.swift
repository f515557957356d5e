import Foundation
import PostgresNIO

extension PostgresStore {
    public func reserveUsernameHash(accountId: String, candidates: [[UInt8]], until: UInt64, now: UInt64) async throws -> [UInt8]? {
        try await transaction { connection in
            try await lockAccount(accountId, on: connection)
            try await perform("DELETE FROM username_hashes WHERE account_id = \(accountId) AND NOT confirmed", on: connection)
            for candidate in candidates {
                // One statement per candidate: the insert, or the take-over of a lapsed reservation, holds the row, so
                // two processes reserving one hash at once cannot both win.
                let taken = try await count(
                    """
                    WITH taken AS (
                        INSERT INTO username_hashes (hash, account_id, confirmed, reserved_until)
                        VALUES (\(ByteBuffer(bytes: candidate)), \(accountId), false, \(Self.bigint(until)))
                        ON CONFLICT (hash) DO UPDATE SET account_id = excluded.account_id, reserved_until = excluded.reserved_until
                        WHERE NOT username_hashes.confirmed AND username_hashes.reserved_until <= \(Self.bigint(now))
                        RETURNING 1
                    ) SELECT count(*) FROM taken
                    """, on: connection)
                if taken == 1 { return candidate }
                let own = try await count(
                    """
                    SELECT count(*) FROM username_hashes
                    WHERE hash = \(ByteBuffer(bytes: candidate)) AND account_id = \(accountId) AND confirmed
                    """, on: connection)
                if own == 1 { return candidate }
            }
            return nil
        }
    }

    public func confirmUsernameHash(
        accountId: String, hash: [UInt8], now: UInt64, link: (handle: String, encryptedValue: [UInt8])?
    ) async throws -> Bool {
        try await transaction { connection in
            try await lockAccount(accountId, on: connection)
            var wasConfirmed: Bool?
            let rows = try await connection.query(
                "SELECT confirmed FROM username_hashes WHERE hash = \(ByteBuffer(bytes: hash)) AND account_id = \(accountId)",
                logger: logger)
            for try await confirmed in rows.decode(Bool.self) { wasConfirmed = confirmed }
            let confirmed = try await count(
                """
                WITH confirmed AS (
                    UPDATE username_hashes SET confirmed = true, reserved_until = 0
                    WHERE hash = \(ByteBuffer(bytes: hash)) AND account_id = \(accountId)
                        AND (confirmed OR reserved_until > \(Self.bigint(now)))
                    RETURNING 1
                ) SELECT count(*) FROM confirmed
                """, on: connection)
            guard confirmed == 1 else { return false }
            try await perform(
                "DELETE FROM username_hashes WHERE account_id = \(accountId) AND hash <> \(ByteBuffer(bytes: hash))", on: connection)
            if let link {
                try await replaceUsernameLink(of: accountId, handle: link.handle, encryptedValue: link.encryptedValue, on: connection)
            } else if wasConfirmed != true {
                try await perform("DELETE FROM username_links WHERE account_id = \(accountId)", on: connection)
            }
            return true
        }
    }

    /// Locks the account's row for the transaction: one account's username changes (two reservations confirmed at once
    /// from two devices) take turns instead of deadlocking on each other's rows.
    private func lockAccount(_ accountId: String, on connection: PostgresConnection) async throws {
        try await perform("SELECT 1 FROM accounts WHERE id = \(accountId) FOR UPDATE", on: connection)
    }

    public func deleteUsernameHash(accountId: String) async throws {
        try await transaction { connection in
            try await lockAccount(accountId, on: connection)
            try await perform("DELETE FROM username_hashes WHERE account_id = \(accountId)", on: connection)
            try await perform("DELETE FROM username_links WHERE account_id = \(accountId)", on: connection)
        }
    }

    public func account(usernameHash hash: [UInt8]) async throws -> String? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT account_id FROM username_hashes WHERE hash = \(ByteBuffer(bytes: hash)) AND confirmed", logger: logger)
            for try await accountId in rows.decode(String.self) { return accountId }
            return nil
        }
    }

    public func usernameHash(accountId: String) async throws -> (hash: [UInt8], linkHandle: String?)? {
        try await withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT h.hash, l.handle FROM username_hashes h LEFT JOIN username_links l ON l.account_id = h.account_id
                WHERE h.account_id = \(accountId) AND h.confirmed
                """, logger: logger)
            for try await (hash, handle) in rows.decode((ByteBuffer, String?).self) { return (Array(hash.readableBytesView), handle) }
            return nil
        }
    }

    public func setUsernameLink(accountId: String, encryptedValue: [UInt8], keepHandle: Bool, newHandle: String) async throws -> String? {
        try await transaction { connection in
            // The account's confirmed hash, locked: a concurrent delete of the username waits for the link to be stored
            // (and then removes it) instead of leaving a link without a username.
            let named = try await count(
                """
                SELECT count(*) FROM (SELECT 1 FROM username_hashes WHERE account_id = \(accountId) AND confirmed FOR UPDATE) named
                """, on: connection)
            guard named == 1 else { return nil }
            var current: String?
            let rows = try await connection.query(
                "SELECT handle FROM username_links WHERE account_id = \(accountId) FOR UPDATE", logger: logger)
            for try await handle in rows.decode(String.self) { current = handle }
            let handle = keepHandle ? current ?? newHandle : newHandle
            try await replaceUsernameLink(of: accountId, handle: handle, encryptedValue: encryptedValue, on: connection)
            return handle
        }
    }

    public func usernameLink(handle: String) async throws -> [UInt8]? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT encrypted_value FROM username_links WHERE handle = \(handle)", logger: logger)
            for try await value in rows.decode(ByteBuffer.self) { return Array(value.readableBytesView) }
            return nil
        }
    }

    public func deleteUsernameLink(accountId: String) async throws {
        try await withConnection { connection in
            try await perform("DELETE FROM username_links WHERE account_id = \(accountId)", on: connection)
        }
    }

    /// Makes `encryptedValue` under `handle` the account's one username link (in the caller's transaction).
    private func replaceUsernameLink(
        of accountId: String, handle: String, encryptedValue: [UInt8], on connection: PostgresConnection
    ) async throws {
        try await perform("DELETE FROM username_links WHERE account_id = \(accountId)", on: connection)
        try await perform(
            """
            INSERT INTO username_links (handle, account_id, encrypted_value)
            VALUES (\(handle), \(accountId), \(ByteBuffer(bytes: encryptedValue)))
            """, on: connection)
    }
}
