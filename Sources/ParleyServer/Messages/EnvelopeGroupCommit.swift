import Synchronization

/// Group commit for envelope writes: concurrent sends hand their envelopes to one writer, which stores everything
/// waiting in one transaction and answers each sender only after that transaction committed. Batches form by
/// themselves: while one transaction runs, the next sends queue, so an idle server adds no wait and a busy one commits
/// many sends at once. A batch holds at most ``maximumEnvelopes`` envelopes. If a batch's transaction fails, its sends
/// are stored one by one, so one bad send (a device removed meanwhile) cannot fail the others. A send's idempotency
/// record commits with its envelopes, so a repeat finds either both or neither.
public final class EnvelopeGroupCommit: Sendable {
    /// Largest batch, in envelopes.
    public let maximumEnvelopes: Int
    /// Whether sends share transactions; off, every send is its own transaction, written as it comes (for comparison).
    public let isEnabled: Bool
    private let store: any MailboxStore
    private let metrics: ServerMetrics?

    private struct Waiting {
        let send: StoredSend
        let done: CheckedContinuation<Bool, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var writing = false
    }

    private let state = Mutex(State())

    /// A group commit over `store`.
    public init(store: any MailboxStore, enabled: Bool = true, maximumEnvelopes: Int = 1_000, metrics: ServerMetrics? = nil) {
        self.store = store
        self.metrics = metrics
        self.isEnabled = enabled
        self.maximumEnvelopes = max(1, maximumEnvelopes)
    }

    /// Stores `send` (all its envelopes or none) in the next batch; returns once that batch has committed, or throws the
    /// store's error for this send alone.
    /// - Returns: whether it was stored; `false` when its idempotency key was taken already (a repeat: nothing stored).
    public func store(_ send: StoredSend) async throws -> Bool {
        guard isEnabled else { return try await commit([send])[0] }
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<Bool, any Error>) in
            let startWriter = state.withLock { state in
                state.queue.append(Waiting(send: send, done: done))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if startWriter { Task { await self.write() } }
        }
    }

    /// The writer: takes what is waiting, commits it, answers, and goes on until nothing waits.
    private func write() async {
        while let batch = nextBatch() {
            do {
                let stored = try await commit(batch.map(\.send))
                for (waiting, stored) in zip(batch, stored) { waiting.done.resume(returning: stored) }
            } catch {
                guard batch.count > 1 else {
                    batch[0].done.resume(throwing: error)
                    continue
                }
                for waiting in batch {
                    do {
                        waiting.done.resume(returning: try await commit([waiting.send])[0])
                    } catch {
                        waiting.done.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// One write transaction, counted in `parley_envelope_transactions_total`.
    private func commit(_ sends: [StoredSend]) async throws -> [Bool] {
        metrics?.envelopeTransactions.increment()
        return try await store.storeSends(sends)
    }

    /// Up to ``maximumEnvelopes`` envelopes' worth of waiting sends (at least one send), or `nil` (and the writer
    /// stops) when none wait.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.writing = false
                return nil
            }
            var count = 0, taken = 0
            // A send without envelopes (an own-account probe) still writes its idempotency record: it counts as one.
            while taken < state.queue.count, taken == 0 || count + max(1, state.queue[taken].send.envelopes.count) <= maximumEnvelopes {
                count += max(1, state.queue[taken].send.envelopes.count)
                taken += 1
            }
            defer { state.queue.removeFirst(taken) }
            return Array(state.queue.prefix(taken))
        }
    }
}
