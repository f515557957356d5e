/// Group commit for envelope writes: concurrent sends hand their envelopes to one writer (a ``BatchedWriter``), which
/// stores everything waiting in one transaction and answers each sender only after that transaction committed. Batches
/// form by themselves: while one transaction runs, the next sends queue, so an idle server adds no wait and a busy one
/// commits many sends at once. A batch holds at most ``maximumEnvelopes`` envelopes. If a batch's transaction fails,
/// its sends are stored one by one, so one bad send (a device removed meanwhile) cannot fail the others. A send's
/// idempotency record commits with its envelopes, so a repeat finds either both or neither.
public final class EnvelopeGroupCommit: Sendable {
    /// Largest batch, in envelopes.
    public var maximumEnvelopes: Int { writer.maximumWeight }
    /// Whether sends share transactions; off, every send is its own transaction, written as it comes (for comparison).
    public let isEnabled: Bool
    private let writer: BatchedWriter<StoredSend, Bool>

    /// A group commit over `store`.
    public init(store: any MailboxStore, enabled: Bool = true, maximumEnvelopes: Int = 1_000, metrics: ServerMetrics? = nil) {
        self.isEnabled = enabled
        // A send without envelopes (an own-account probe) still writes its idempotency record: it weighs one.
        writer = BatchedWriter(
            maximumWeight: maximumEnvelopes, weight: { max(1, $0.envelopes.count) },
            commit: { sends in
                // One write transaction, counted in `parley_envelope_transactions_total`.
                metrics?.envelopeTransactions.increment()
                return try await store.storeSends(sends)
            })
    }

    /// Stores `send` (all its envelopes or none) in the next batch; returns once that batch has committed, or throws the
    /// store's error for this send alone.
    /// - Returns: whether it was stored; `false` when its idempotency key was taken already (a repeat: nothing stored).
    public func store(_ send: StoredSend) async throws -> Bool {
        guard isEnabled else { return try await writer.commitAlone(send) }
        return try await writer.submit(send)
    }
}
