import Foundation
import ParleyAPI
import PostgresNIO

extension PostgresStore {
    public func hashBanks(_ hashes: [[UInt8]], now: UInt64) async throws -> [[UInt8]: [String]] {
        guard !hashes.isEmpty else { return [:] }
        let hexes = hashes.map(ContentHashFormat.hex)
        return try await withConnection { connection in
            var found: [[UInt8]: [String]] = [:]
            let rows = try await connection.query(
                """
                SELECT bank, hash FROM dcd_hashes
                WHERE bank IN ('blocked', 'seen') AND hash IN (SELECT decode(h, 'hex') FROM unnest(\(hexes)::text[]) AS h)
                  AND (expires IS NULL OR expires > \(Self.bigint(now)))
                ORDER BY bank
                """, logger: logger)
            for try await (bank, hash) in rows.decode((String, ByteBuffer).self) {
                found[Array(buffer: hash), default: []].append(bank)
            }
            return found
        }
    }

    public func storeHash(_ hash: [UInt8], bank: String, now: UInt64, expires: UInt64?) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO dcd_hashes (bank, hash, added, expires)
                VALUES (\(bank), \(ByteBuffer(bytes: hash)), \(Self.bigint(now)), \(expires.map(Self.bigint)))
                ON CONFLICT (bank, hash) DO UPDATE SET expires = excluded.expires
                """, on: connection)
        }
    }

    public func deleteHash(_ hash: [UInt8], bank: String) async throws -> Bool {
        try await withConnection { connection in
            try await count(
                """
                WITH deleted AS (DELETE FROM dcd_hashes WHERE bank = \(bank) AND hash = \(ByteBuffer(bytes: hash)) RETURNING 1)
                SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }

    public func hashes(from lower: [UInt8], to upper: [UInt8]?, banks: [String], now: UInt64, limit: Int) async throws -> [[UInt8]] {
        try await withConnection { connection in
            var result: [[UInt8]] = []
            for bank in banks {
                let rows: PostgresRowSequence
                if let upper {
                    rows = try await connection.query(
                        """
                        SELECT hash FROM dcd_hashes WHERE bank = \(bank) AND hash >= \(ByteBuffer(bytes: lower))
                          AND hash < \(ByteBuffer(bytes: upper)) AND (expires IS NULL OR expires > \(Self.bigint(now)))
                        ORDER BY hash LIMIT \(limit)
                        """, logger: logger)
                } else {
                    rows = try await connection.query(
                        """
                        SELECT hash FROM dcd_hashes WHERE bank = \(bank) AND hash >= \(ByteBuffer(bytes: lower))
                          AND (expires IS NULL OR expires > \(Self.bigint(now)))
                        ORDER BY hash LIMIT \(limit)
                        """, logger: logger)
                }
                for try await hash in rows.decode(ByteBuffer.self) { result.append(Array(buffer: hash)) }
            }
            return result
        }
    }

    public func deleteHashes(expiredBefore now: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                """
                WITH deleted AS (DELETE FROM dcd_hashes WHERE expires IS NOT NULL AND expires <= \(Self.bigint(now)) RETURNING 1)
                SELECT count(*) FROM deleted
                """, on: connection)
        }
    }

    public func createImportJob(_ job: HashImportJob) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO dcd_import_jobs (id, bank, state, file_bytes, created, updated)
                VALUES (\(job.id), \(job.bank), \(job.state), \(job.fileBytes), \(Self.bigint(job.created)), \(Self.bigint(job.updated)))
                """, on: connection)
        }
    }

    public func importJob(id: String) async throws -> StoredHashImportJob? {
        try await withConnection { connection in
            try await importJobs("SELECT \(unescaped: Self.importJobColumns) FROM dcd_import_jobs WHERE id = \(id)", on: connection).first
        }
    }

    public func unfinishedImportJobs() async throws -> [StoredHashImportJob] {
        try await withConnection { connection in
            try await importJobs(
                "SELECT \(unescaped: Self.importJobColumns) FROM dcd_import_jobs WHERE state IN ('queued', 'running') ORDER BY created",
                on: connection)
        }
    }

    public func importChunk(jobId: String, bank: String, hashes: [[UInt8]], progress: HashImportProgress, now: UInt64) async throws -> Int {
        let hexes = hashes.map(ContentHashFormat.hex)
        return try await transaction { connection in
            let inserted = try await count(
                """
                WITH inserted AS (
                    INSERT INTO dcd_hashes (bank, hash, added)
                    SELECT \(bank), decode(h, 'hex'), \(Self.bigint(now)) FROM unnest(\(hexes)::text[]) AS h
                    ON CONFLICT (bank, hash) DO NOTHING RETURNING 1
                ) SELECT count(*) FROM inserted
                """, on: connection)
            let errors = try await importErrors(of: jobId, appending: progress.newErrors, on: connection)
            try await perform(
                """
                UPDATE dcd_import_jobs SET state = 'running', resume_offset = \(progress.offset), lines = \(progress.lines),
                    invalid = \(progress.invalid), errors = \(errors), imported = imported + \(Int64(inserted)),
                    duplicates = duplicates + \(Int64(hashes.count - inserted)), updated = \(Self.bigint(now))
                WHERE id = \(jobId)
                """, on: connection)
            return inserted
        }
    }

    public func finishImportJob(id: String, state: String, error: String?, now: UInt64) async throws {
        try await transaction { connection in
            let errors = try await importErrors(of: id, appending: error.map { [$0] } ?? [], on: connection)
            try await perform(
                "UPDATE dcd_import_jobs SET state = \(state), errors = \(errors), updated = \(Self.bigint(now)) WHERE id = \(id)",
                on: connection)
        }
    }

    /// Job `id`'s stored errors with `new` appended (see ``ImportErrors``), its row locked for the caller's transaction.
    private func importErrors(of id: String, appending new: [String], on connection: PostgresConnection) async throws -> String {
        var stored = "[]"
        let rows = try await connection.query("SELECT errors FROM dcd_import_jobs WHERE id = \(id) FOR UPDATE", logger: logger)
        for try await errors in rows.decode(String.self) { stored = errors }
        return ImportErrors.appending(new, to: stored)
    }

    private static let importJobColumns =
        "id, bank, state, file_bytes, resume_offset, lines, imported, duplicates, invalid, errors, created, updated"

    private func importJobs(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [StoredHashImportJob] {
        var jobs: [StoredHashImportJob] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, bank, state, fileBytes, offset, lines, imported, duplicates, invalid, errors, created, updated)
            in rows.decode((String, String, String, Int64, Int64, Int64, Int64, Int64, Int64, String, Int64, Int64).self)
        {
            jobs.append(
                StoredHashImportJob(
                    job: HashImportJob(
                        id: id, bank: bank, state: state, fileBytes: fileBytes, lines: lines, imported: imported,
                        duplicates: duplicates, invalid: invalid, errors: ImportErrors.decode(errors),
                        created: UInt64(max(0, created)), updated: UInt64(max(0, updated))),
                    offset: offset))
        }
        return jobs
    }
}
