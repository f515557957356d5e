/// A store answered a batch of acknowledgement deletes with another number of counts than the batch had devices: the
/// batch is treated as failed (and retried device by device), so no socket waits for an answer that never comes.
struct AcknowledgementCountMismatch: Error, CustomStringConvertible {
    /// Devices in the batch.
    let expected: Int
    /// Counts the store returned.
    let received: Int

    var description: String { "the store answered \(received) counts for \(expected) devices' deletes" }
}
