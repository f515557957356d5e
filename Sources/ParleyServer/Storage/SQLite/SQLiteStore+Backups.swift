import Foundation
internal import GRDB

extension SQLiteStore {
    public func storeBackup(_ backup: StoredBackup) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO key_backups (account_id, blob, kdf_parameters, verifier_hash, failures, created, key_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account_id) DO UPDATE SET blob = excluded.blob, kdf_parameters = excluded.kdf_parameters,
                        verifier_hash = excluded.verifier_hash, failures = excluded.failures, created = excluded.created,
                        key_id = excluded.key_id, attempt_token_hash = NULL
                    """,
                arguments: [
                    backup.accountId, Data(backup.blob), backup.kdfParameters, Data(backup.verifierHash),
                    Int64(backup.failures), Int64(clamping: backup.created), Data(backup.keyId),
                ])
        }
    }

    public func backup(accountId: String) async throws -> StoredBackup? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM key_backups WHERE account_id = ?", arguments: [accountId]).map(Self.backup(from:))
        }
    }

    public func countBackupAttempt(accountId: String, maximumFailures: Int, keyId: [UInt8], attemptTokenHash: [UInt8]) async throws
        -> BackupAttemptOutcome
    {
        // One write transaction: SQLite serializes writers, so concurrent guesses are counted one after the other.
        try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM key_backups WHERE account_id = ?", arguments: [accountId]) else {
                return .noBackup
            }
            let stored = Self.backup(from: row)
            guard stored.keyId == keyId else { return .keyMismatch }
            guard stored.failures < maximumFailures else {
                try db.execute(sql: "DELETE FROM key_backups WHERE account_id = ?", arguments: [accountId])
                return .wiped
            }
            try db.execute(
                sql: "UPDATE key_backups SET failures = failures + 1, attempt_token_hash = ? WHERE account_id = ?",
                arguments: [Data(attemptTokenHash), accountId])
            return .counted(
                StoredBackup(
                    accountId: stored.accountId, blob: stored.blob, kdfParameters: stored.kdfParameters, verifierHash: stored.verifierHash,
                    failures: stored.failures + 1, created: stored.created, keyId: stored.keyId))
        }
    }

    public func takeBackupAttempt(accountId: String, attemptTokenHash: [UInt8]) async throws -> StoredBackup? {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE key_backups SET attempt_token_hash = NULL WHERE account_id = ? AND attempt_token_hash = ?",
                arguments: [accountId, Data(attemptTokenHash)])
            guard db.changesCount == 1 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM key_backups WHERE account_id = ?", arguments: [accountId]).map(
                Self.backup(from:))
        }
    }

    public func resetBackupFailures(accountId: String, verifierHash: [UInt8]) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE key_backups SET failures = 0 WHERE account_id = ? AND verifier_hash = ?",
                arguments: [accountId, Data(verifierHash)])
        }
    }

    public func deleteBackup(accountId: String, verifierHash: [UInt8]?) async throws -> Bool {
        try await database.write { db in
            if let verifierHash {
                try db.execute(
                    sql: "DELETE FROM key_backups WHERE account_id = ? AND verifier_hash = ?",
                    arguments: [accountId, Data(verifierHash)])
            } else {
                try db.execute(sql: "DELETE FROM key_backups WHERE account_id = ?", arguments: [accountId])
            }
            return db.changesCount > 0
        }
    }

    private static func backup(from row: Row) -> StoredBackup {
        StoredBackup(
            accountId: row["account_id"], blob: [UInt8](row["blob"] as Data), kdfParameters: row["kdf_parameters"],
            verifierHash: [UInt8](row["verifier_hash"] as Data), failures: Int(row["failures"] as Int64),
            created: UInt64(max(0, row["created"] as Int64)), keyId: [UInt8]((row["key_id"] as Data?) ?? Data()))
    }
}
