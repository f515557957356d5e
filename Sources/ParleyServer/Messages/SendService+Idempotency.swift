extension SendService {
    /// What makes a send idempotent: its key's scope (who may use the key), the key, and what the send is (so that the
    /// key reused for another message is told apart from a repeat).
    struct Idempotency: Sendable {
        /// `device:<account>.<device>`, `unidentified:<account>` or `unidentified-multi:<hash of the recipients>`.
        let scope: String
        /// The client's `Idempotency-Key`.
        let key: String
        /// `<recipient>:<timestamp>`, or `multi:<timestamp>`.
        let fingerprint: String
    }

    /// The server timestamp a repeat of the send `idempotency` describes is answered with, or `nil` when its key is new
    /// (or there is none).
    /// - Throws: 422 when the key was first used for another message.
    func firstAnswer(to idempotency: Idempotency?) async throws -> UInt64? {
        guard let idempotency, let first = try await store.idempotencyRecord(scope: idempotency.scope, key: idempotency.key) else {
            return nil
        }
        guard first.fingerprint == idempotency.fingerprint else {
            throw ServerError.clientError(
                .unprocessableContent,
                "this \(IdempotencyKey.headerName) was first used for another message "
                    + "(another recipient or timestamp); choose a new key for a new message")
        }
        return first.serverTimestamp
    }

    /// Stores `envelopes`, accepted at `now`, with `idempotency`'s record in the same transaction; returns the server
    /// timestamp to answer with: `now`, or the first send's when a repeat raced this one (sent before the first answer
    /// came) and stored first.
    func store(_ envelopes: [StoredEnvelope], idempotency: Idempotency?, now: UInt64) async throws -> UInt64 {
        let record = idempotency.map { IdempotencyRecord(scope: $0.scope, key: $0.key, fingerprint: $0.fingerprint, serverTimestamp: now) }
        guard try await deliver(envelopes, idempotency: record) else {
            guard let first = try await firstAnswer(to: idempotency) else {
                throw ServerError.internalFailure("a send's idempotency record vanished")
            }
            return first
        }
        return now
    }
}
