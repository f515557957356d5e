/// One send's envelopes, written all or none, with the idempotency record that makes a repeat of the send find the
/// first answer instead of storing the envelopes again.
public struct StoredSend: Sendable, Equatable {
    /// The envelopes, one per recipient device.
    public let envelopes: [StoredEnvelope]
    /// Kept in the same transaction as the envelopes, when the sender gave an `Idempotency-Key`.
    public let idempotency: IdempotencyRecord?

    /// A send.
    public init(envelopes: [StoredEnvelope], idempotency: IdempotencyRecord? = nil) {
        self.envelopes = envelopes
        self.idempotency = idempotency
    }
}
