/// What ``ParleyClient/receive(attempt:)`` did: each envelope it took from the mailbox, and the pass over the queue
/// that followed (receipts, and whatever else was waiting).
public struct ReceiveReport: Sendable, Equatable {
    /// Each envelope's outcome and the acts the message it stored released, in the order they came.
    public let envelopes: [ReceivedEnvelope]
    /// What the pass over the queue after receiving did.
    public let jobs: JobReport

    /// A report.
    public init(envelopes: [ReceivedEnvelope], jobs: JobReport) {
        self.envelopes = envelopes
        self.jobs = jobs
    }

    /// Every outcome: each envelope's, followed by an ``ReceiveOutcome/acted(_:)`` for each act it released.
    public var outcomes: [ReceiveOutcome] { envelopes.flatMap(\.outcomes) }
}
