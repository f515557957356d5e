import ParleyAPI

/// Duplicate-content detection: the hash banks and the jobs importing into them.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol HashBankStore: Sendable {
    /// The banks holding each of `hashes` (entries not expired at `now`); hashes no bank holds are left out.
    func hashBanks(_ hashes: [[UInt8]], now: UInt64) async throws -> [[UInt8]: [String]]
    /// Adds `hash` to `bank`, expiring at `expires` (never when `nil`); an entry already there gets the new expiry.
    func storeHash(_ hash: [UInt8], bank: String, now: UInt64, expires: UInt64?) async throws
    /// Removes `hash` from `bank`; `false` when the bank did not hold it.
    func deleteHash(_ hash: [UInt8], bank: String) async throws -> Bool
    /// Unexpired hashes of `banks` from `lower` (inclusive) to `upper` (exclusive; `nil`: to the end), at most `limit`.
    func hashes(from lower: [UInt8], to upper: [UInt8]?, banks: [String], now: UInt64, limit: Int) async throws -> [[UInt8]]
    /// Deletes hash-bank entries that expired before `now`; returns how many.
    func deleteHashes(expiredBefore now: UInt64) async throws -> Int
    /// Records a new import job.
    func createImportJob(_ job: HashImportJob) async throws
    /// An import job and its resume offset.
    func importJob(id: String) async throws -> StoredHashImportJob?
    /// Jobs that are queued or were running when the server stopped.
    func unfinishedImportJobs() async throws -> [StoredHashImportJob]
    /// In one transaction: adds `hashes` to `bank` (those already there count as duplicates) and records `progress`;
    /// returns how many were new.
    func importChunk(jobId: String, bank: String, hashes: [[UInt8]], progress: HashImportProgress, now: UInt64) async throws -> Int
    /// Marks an import job `completed` or `failed`.
    func finishImportJob(id: String, state: String, error: String?, now: UInt64) async throws
}
