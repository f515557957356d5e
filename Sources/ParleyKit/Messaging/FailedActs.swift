import Synchronization

/// The timestamps of the latest content jobs (reactions, edits, deletes, timer changes) the job runner gave up on, so
/// a caller that queued one can tell "failed" from "sent" once its job is gone (``ParleyClient/actFailed(sentAt:)``).
/// In memory and bounded: it answers about acts of this process's recent passes.
final class FailedActs: Sendable {
    /// Timestamps remembered, the oldest forgotten first.
    static let capacity = 1_000

    private let timestamps = Mutex<[UInt64]>([])

    /// Remembers that the act sent at `timestamp` failed for good.
    func record(_ timestamp: UInt64) {
        timestamps.withLock { list in
            list.append(timestamp)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
    }

    /// Whether the act sent at `timestamp` failed for good lately.
    func contains(_ timestamp: UInt64) -> Bool {
        timestamps.withLock { $0.contains(timestamp) }
    }
}
