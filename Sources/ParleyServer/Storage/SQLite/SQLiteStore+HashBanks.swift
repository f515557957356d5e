import Foundation
internal import GRDB
import ParleyAPI

extension SQLiteStore {
    public func hashBanks(_ hashes: [[UInt8]], now: UInt64) async throws -> [[UInt8]: [String]] {
        guard !hashes.isEmpty else { return [:] }
        return try await database.read { db in
            var found: [[UInt8]: [String]] = [:]
            let placeholders = Array(repeating: "?", count: hashes.count).joined(separator: ",")
            var arguments = StatementArguments(hashes.map { Data($0) })
            arguments += [Int64(clamping: now)]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT bank, hash FROM dcd_hashes
                    WHERE bank IN ('blocked', 'seen') AND hash IN (\(placeholders)) AND (expires IS NULL OR expires > ?)
                    ORDER BY bank
                    """, arguments: arguments)
            while let row = try rows.next() {
                found[Array(row["hash"] as Data), default: []].append(row["bank"])
            }
            return found
        }
    }

    public func storeHash(_ hash: [UInt8], bank: String, now: UInt64, expires: UInt64?) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO dcd_hashes (bank, hash, added, expires) VALUES (?, ?, ?, ?)
                    ON CONFLICT (bank, hash) DO UPDATE SET expires = excluded.expires
                    """, arguments: [bank, Data(hash), Int64(clamping: now), expires.map { Int64(clamping: $0) }])
        }
    }

    public func deleteHash(_ hash: [UInt8], bank: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM dcd_hashes WHERE bank = ? AND hash = ?", arguments: [bank, Data(hash)])
            return db.changesCount > 0
        }
    }

    public func hashes(from lower: [UInt8], to upper: [UInt8]?, banks: [String], now: UInt64, limit: Int) async throws -> [[UInt8]] {
        try await database.read { db in
            var result: [[UInt8]] = []
            for bank in banks {
                var arguments: StatementArguments = [bank, Data(lower), Int64(clamping: now)]
                var sql = "SELECT hash FROM dcd_hashes WHERE bank = ? AND hash >= ? AND (expires IS NULL OR expires > ?)"
                if let upper {
                    sql += " AND hash < ?"
                    arguments += [Data(upper)]
                }
                sql += " ORDER BY hash LIMIT ?"
                arguments += [limit]
                result += try Data.fetchAll(db, sql: sql, arguments: arguments).map(Array.init)
            }
            return result
        }
    }

    public func deleteHashes(expiredBefore now: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM dcd_hashes WHERE expires IS NOT NULL AND expires <= ?", arguments: [Int64(clamping: now)])
            return db.changesCount
        }
    }

    public func createImportJob(_ job: HashImportJob) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO dcd_import_jobs (id, bank, state, file_bytes, created, updated) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [job.id, job.bank, job.state, job.fileBytes, Int64(clamping: job.created), Int64(clamping: job.updated)])
        }
    }

    public func importJob(id: String) async throws -> StoredHashImportJob? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM dcd_import_jobs WHERE id = ?", arguments: [id]).map(Self.importJob(from:))
        }
    }

    public func unfinishedImportJobs() async throws -> [StoredHashImportJob] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM dcd_import_jobs WHERE state IN ('queued', 'running') ORDER BY created")
                .map(Self.importJob(from:))
        }
    }

    public func importChunk(jobId: String, bank: String, hashes: [[UInt8]], progress: HashImportProgress, now: UInt64) async throws -> Int {
        try await database.write { db in
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO dcd_hashes (bank, hash, added, expires) VALUES (?, ?, ?, NULL)")
            var inserted = 0
            // In key order, the chunk's inserts walk the index once instead of jumping around it.
            for hash in hashes.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                try insert.execute(arguments: [bank, Data(hash), Int64(clamping: now)])
                inserted += db.changesCount
            }
            let errors = try Self.importErrors(of: jobId, appending: progress.newErrors, db)
            try db.execute(
                sql: """
                    UPDATE dcd_import_jobs SET state = 'running', resume_offset = ?, lines = ?, invalid = ?, errors = ?,
                        imported = imported + ?, duplicates = duplicates + ?, updated = ?
                    WHERE id = ?
                    """,
                arguments: [
                    progress.offset, progress.lines, progress.invalid, errors, inserted, hashes.count - inserted,
                    Int64(clamping: now), jobId,
                ])
            return inserted
        }
    }

    public func finishImportJob(id: String, state: String, error: String?, now: UInt64) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE dcd_import_jobs SET state = ?, errors = ?, updated = ? WHERE id = ?",
                arguments: [
                    state, try Self.importErrors(of: id, appending: error.map { [$0] } ?? [], db),
                    Int64(clamping: now), id,
                ])
        }
    }

    /// Job `id`'s stored errors with `new` appended (see ``ImportErrors``), read inside the caller's transaction.
    private static func importErrors(of id: String, appending new: [String], _ db: Database) throws -> String {
        let stored = try String.fetchOne(db, sql: "SELECT errors FROM dcd_import_jobs WHERE id = ?", arguments: [id]) ?? "[]"
        return ImportErrors.appending(new, to: stored)
    }

    private static func importJob(from row: Row) -> StoredHashImportJob {
        StoredHashImportJob(
            job: HashImportJob(
                id: row["id"], bank: row["bank"], state: row["state"], fileBytes: row["file_bytes"], lines: row["lines"],
                imported: row["imported"], duplicates: row["duplicates"], invalid: row["invalid"],
                errors: ImportErrors.decode(row["errors"]), created: UInt64(max(0, row["created"] as Int64)),
                updated: UInt64(max(0, row["updated"] as Int64))),
            offset: row["resume_offset"])
    }
}
