import Foundation
import Logging
import ParleyAPI
import Synchronization

/// Runs hash import jobs in the background, one at a time, in chunks: each chunk's hashes and the job's progress
/// commit together, so a server killed mid-import resumes at the last committed line and counts nothing twice.
public final class HashImporter: Sendable {
    let store: any HashBankStore
    let settings: ContentDetectionSettings
    let metrics: ServerMetrics
    let logger: Logger
    /// Jobs waiting, and the worker draining them (`nil` when idle).
    private let state = Mutex<(queue: [String], worker: Task<Void, Never>?)>(([], nil))

    /// An importer over `store`.
    public init(store: any HashBankStore, settings: ContentDetectionSettings, metrics: ServerMetrics, logger: Logger) {
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// Where job `id`'s file is kept while it runs.
    func filePath(_ id: String) -> String { settings.importDirectory.appendingPathComponent(id).path }

    /// Queues job `id` (its record stored, its file in place) and starts the worker when idle.
    func enqueue(_ id: String) {
        state.withLock { state in
            state.queue.append(id)
            guard state.worker == nil else { return }
            state.worker = Task { await self.drain() }
        }
    }

    /// Queues every job left queued or running by an earlier process whose file is still here.
    public func resumeUnfinished() async {
        do {
            for stored in try await store.unfinishedImportJobs() {
                guard FileManager.default.fileExists(atPath: filePath(stored.job.id)) else {
                    // Not this process's job (another data directory), or its file was removed: it cannot finish.
                    try await store.finishImportJob(
                        id: stored.job.id, state: "failed", error: "the import file is gone",
                        now: ServerClock.milliseconds())
                    continue
                }
                logger.info("resuming hash import", metadata: ["job": "\(stored.job.id)", "offset": "\(stored.offset)"])
                enqueue(stored.job.id)
            }
        } catch {
            logger.error("cannot list unfinished hash imports", metadata: ["error": "\(error)"])
        }
    }

    /// Waits until no job is queued or running (tests, benchmarks).
    public func waitUntilIdle() async {
        while let running = state.withLock({ $0.worker }) { await running.value }
    }

    private func drain() async {
        while true {
            let next: String? = state.withLock { state in
                if state.queue.isEmpty {
                    state.worker = nil
                    return nil
                }
                return state.queue.removeFirst()
            }
            guard let next else { return }
            await run(next)
        }
    }

    private func run(_ id: String) async {
        let path = filePath(id)
        do {
            guard let stored = try await store.importJob(id: id), ["queued", "running"].contains(stored.job.state) else { return }
            try await importFile(path, job: stored)
            try await store.finishImportJob(id: id, state: "completed", error: nil, now: ServerClock.milliseconds())
            try? FileManager.default.removeItem(atPath: path)
            logger.info("hash import completed", metadata: ["job": "\(id)"])
        } catch {
            logger.error("hash import failed", metadata: ["job": "\(id)", "error": "\(error)"])
            try? await store.finishImportJob(id: id, state: "failed", error: "import failed: \(error)", now: ServerClock.milliseconds())
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private func importFile(_ path: String, job stored: StoredHashImportJob) async throws {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var parser = HashFileParser()
        var progress = HashImportProgress()
        progress.offset = stored.offset
        progress.lines = stored.job.lines
        progress.invalid = stored.job.invalid
        if stored.offset > 0 {
            // The first non-blank line decides how later lines read (a CSV header or not): parse it again, then
            // continue where the last committed chunk ended.
            let start = Array(try file.read(upToCount: Int(min(stored.offset, 1 << 20))) ?? Data())
            for line in start.split(separator: 10, omittingEmptySubsequences: true)
            where !line.allSatisfy({ [9, 13, 32].contains($0) }) {
                _ = parser.parse(line)
                break
            }
            try file.seek(toOffset: UInt64(stored.offset))
        }
        var hashes: [[UInt8]] = []
        hashes.reserveCapacity(settings.importChunkSize)
        var buffer: [UInt8] = []
        var skippingLongLine = false

        func take(_ line: ArraySlice<UInt8>, consumed: Int) {
            progress.offset += Int64(consumed)
            progress.lines += 1
            switch parser.parse(line) {
            case .hash(let hash): hashes.append(hash)
            case .invalid(let reason):
                progress.invalid += 1
                if progress.newErrors.count < ImportErrors.limit { progress.newErrors.append("line \(progress.lines): \(reason)") }
            case .skipped: break
            }
        }
        var invalidCounted = progress.invalid
        func commit() async throws {
            let inserted = try await store.importChunk(
                jobId: stored.job.id, bank: stored.job.bank, hashes: hashes, progress: progress,
                now: ServerClock.milliseconds())
            metrics.countImportLines("imported", inserted)
            metrics.countImportLines("duplicate", hashes.count - inserted)
            metrics.countImportLines("invalid", Int(progress.invalid - invalidCounted))
            invalidCounted = progress.invalid
            hashes.removeAll(keepingCapacity: true)
            progress.newErrors.removeAll()
        }

        while let data = try file.read(upToCount: 1 << 20), !data.isEmpty {
            buffer += data
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 10) {
                if skippingLongLine {
                    skippingLongLine = false
                    progress.offset += Int64(newline - start + 1)
                } else {
                    take(buffer[start..<newline], consumed: newline - start + 1)
                }
                start = newline + 1
                if hashes.count >= settings.importChunkSize { try await commit() }
            }
            buffer.removeFirst(start)
            if buffer.count > HashFileParser.maximumLineBytes && !skippingLongLine {
                // A line too long to be anything we read: count it invalid once, skip to its end.
                take(buffer[0..<HashFileParser.maximumLineBytes + 1], consumed: buffer.count)
                buffer.removeAll()
                skippingLongLine = true
            } else if skippingLongLine {
                progress.offset += Int64(buffer.count)
                buffer.removeAll()
            }
        }
        if !buffer.isEmpty && !skippingLongLine { take(buffer[...], consumed: buffer.count) }
        try await commit()
    }
}
