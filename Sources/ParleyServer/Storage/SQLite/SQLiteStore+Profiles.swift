import Foundation
internal import GRDB

extension SQLiteStore {
    public func storeProfileKeyCommitment(accountId: String, version: String, commitment: [UInt8], created: UInt64) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO profile_key_commitments (account_id, version, commitment, created) VALUES (?, ?, ?, ?)
                    ON CONFLICT (account_id, version) DO UPDATE SET commitment = excluded.commitment, created = excluded.created
                    """,
                arguments: [accountId, version, Data(commitment), Int64(clamping: created)])
        }
    }

    public func profileKeyCommitment(accountId: String, version: String) async throws -> [UInt8]? {
        try await database.read { db in
            try Data.fetchOne(
                db, sql: "SELECT commitment FROM profile_key_commitments WHERE account_id = ? AND version = ?",
                arguments: [accountId, version]
            ).map(Array.init)
        }
    }
}
