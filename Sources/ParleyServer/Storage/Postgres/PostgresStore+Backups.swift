import Foundation
import PostgresNIO

extension PostgresStore {
    public func storeBackup(_ backup: StoredBackup) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO key_backups (account_id, blob, kdf_parameters, verifier_hash, failures, created, key_id)
                VALUES (\(backup.accountId), \(ByteBuffer(bytes: backup.blob)), \(backup.kdfParameters),
                        \(ByteBuffer(bytes: backup.verifierHash)), \(Int64(backup.failures)), \(Self.bigint(backup.created)),
                        \(ByteBuffer(bytes: backup.keyId)))
                ON CONFLICT (account_id) DO UPDATE SET blob = excluded.blob, kdf_parameters = excluded.kdf_parameters,
                    verifier_hash = excluded.verifier_hash, failures = excluded.failures, created = excluded.created,
                    key_id = excluded.key_id, attempt_token_hash = NULL
                """, on: connection)
        }
    }

    public func backup(accountId: String) async throws -> StoredBackup? {
        try await withConnection { connection in
            try await backups("\(unescaped: Self.backupColumns) WHERE account_id = \(accountId)", on: connection).first
        }
    }

    public func countBackupAttempt(accountId: String, maximumFailures: Int, keyId: [UInt8], attemptTokenHash: [UInt8]) async throws
        -> BackupAttemptOutcome
    {
        try await transaction { connection in
            // The row lock makes concurrent guesses (from any process) wait for this one, so each is counted once.
            guard
                let stored = try await backups(
                    "\(unescaped: Self.backupColumns) WHERE account_id = \(accountId) FOR UPDATE", on: connection
                ).first
            else { return .noBackup }
            guard stored.keyId == keyId else { return .keyMismatch }
            guard stored.failures < maximumFailures else {
                try await perform("DELETE FROM key_backups WHERE account_id = \(accountId)", on: connection)
                return .wiped
            }
            try await perform(
                """
                UPDATE key_backups SET failures = failures + 1, attempt_token_hash = \(ByteBuffer(bytes: attemptTokenHash))
                WHERE account_id = \(accountId)
                """, on: connection)
            return .counted(
                StoredBackup(
                    accountId: stored.accountId, blob: stored.blob, kdfParameters: stored.kdfParameters, verifierHash: stored.verifierHash,
                    failures: stored.failures + 1, created: stored.created, keyId: stored.keyId))
        }
    }

    public func takeBackupAttempt(accountId: String, attemptTokenHash: [UInt8]) async throws -> StoredBackup? {
        try await withConnection { connection in
            try await backups(
                """
                UPDATE key_backups SET attempt_token_hash = NULL
                WHERE account_id = \(accountId) AND attempt_token_hash = \(ByteBuffer(bytes: attemptTokenHash))
                RETURNING \(unescaped: Self.returnedColumns)
                """, on: connection
            ).first
        }
    }

    public func resetBackupFailures(accountId: String, verifierHash: [UInt8]) async throws {
        try await withConnection { connection in
            try await perform(
                """
                UPDATE key_backups SET failures = 0 WHERE account_id = \(accountId) AND verifier_hash = \(ByteBuffer(bytes: verifierHash))
                """, on: connection)
        }
    }

    public func deleteBackup(accountId: String, verifierHash: [UInt8]?) async throws -> Bool {
        try await withConnection { connection in
            if let verifierHash {
                return try await count(
                    """
                    WITH deleted AS (
                        DELETE FROM key_backups WHERE account_id = \(accountId) AND verifier_hash = \(ByteBuffer(bytes: verifierHash))
                        RETURNING 1
                    ) SELECT count(*) FROM deleted
                    """, on: connection) > 0
            }
            return try await count(
                """
                WITH deleted AS (DELETE FROM key_backups WHERE account_id = \(accountId) RETURNING 1) SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }

    private static let returnedColumns = "account_id, blob, kdf_parameters, verifier_hash, failures, created, key_id"
    private static let backupColumns = "SELECT \(returnedColumns) FROM key_backups"

    private func backups(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredBackup] {
        var backups: [StoredBackup] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (accountId, blob, kdfParameters, verifierHash, failures, created, keyId)
            in rows.decode((String, ByteBuffer, String, ByteBuffer, Int64, Int64, ByteBuffer).self)
        {
            backups.append(
                StoredBackup(
                    accountId: accountId, blob: Array(blob.readableBytesView), kdfParameters: kdfParameters,
                    verifierHash: Array(verifierHash.readableBytesView), failures: Int(failures), created: UInt64(clamping: created),
                    keyId: Array(keyId.readableBytesView)))
        }
        return backups
    }
}
