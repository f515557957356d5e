import Foundation
import PostgresNIO

extension PostgresStore {
    public func storeProfileKeyCommitment(accountId: String, version: String, commitment: [UInt8], created: UInt64) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO profile_key_commitments (account_id, version, commitment, created)
                VALUES (\(accountId), \(version), \(ByteBuffer(bytes: commitment)), \(Self.bigint(created)))
                ON CONFLICT (account_id, version) DO UPDATE SET commitment = excluded.commitment, created = excluded.created
                """, on: connection)
        }
    }

    public func profileKeyCommitment(accountId: String, version: String) async throws -> [UInt8]? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT commitment FROM profile_key_commitments WHERE account_id = \(accountId) AND version = \(version)", logger: logger)
            for try await commitment in rows.decode(ByteBuffer.self) { return Array(commitment.readableBytesView) }
            return nil
        }
    }
}
