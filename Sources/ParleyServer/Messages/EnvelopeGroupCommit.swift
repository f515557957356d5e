import Synchronization

/// Group commit for envelope writes: concurrent sends hand their envelopes to one writer, which stores everything
/// waiting in one transaction and answers each sender only after that transaction committed. Batches form by
/// themselves: while one transaction runs, the next sends queue, so an idle server adds no wait and a busy one commits
/// many sends at once. A batch holds at most ``maximumEnvelopes`` envelopes. If a batch's transaction fails, its sends
/// are stored one by one, so one bad send (a device removed meanwhile) cannot fail the others.
public final class EnvelopeGroupCommit: Sendable {
    /// Largest batch, in envelopes.
    public let maximumEnvelopes: Int
    /// Whether sends share transactions; off, every send is its own transaction, written as it comes (for comparison).
    public let isEnabled: Bool
    private let store: any MailboxStore
    private let metrics: ServerMetrics?

    private struct Waiting {
        let envelopes: [StoredEnvelope]
        let done: CheckedContinuation<Void, any Error>
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

    /// Stores `envelopes` (all or none) in the next batch; returns once that batch has committed, or throws the store's
    /// error for these envelopes alone.
    public func store(_ envelopes: [StoredEnvelope]) async throws {
        guard isEnabled else { return try await commit(envelopes) }
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let startWriter = state.withLock { state in
                state.queue.append(Waiting(envelopes: envelopes, done: done))
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
                try await commit(batch.flatMap(\.envelopes))
                for waiting in batch { waiting.done.resume() }
            } catch {
                guard batch.count > 1 else {
                    batch[0].done.resume(throwing: error)
                    continue
                }
                for waiting in batch {
                    do {
                        try await commit(waiting.envelopes)
                        waiting.done.resume()
                    } catch {
                        waiting.done.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// One write transaction, counted in `parley_envelope_transactions_total`.
    private func commit(_ envelopes: [StoredEnvelope]) async throws {
        metrics?.envelopeTransactions.increment()
        try await store.storeEnvelopes(envelopes)
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
            while taken < state.queue.count, taken == 0 || count + state.queue[taken].envelopes.count <= maximumEnvelopes {
                count += state.queue[taken].envelopes.count
                taken += 1
            }
            defer { state.queue.removeFirst(taken) }
            return Array(state.queue.prefix(taken))
        }
    }
}
