import Foundation

/// What receiving one envelope did (``ParleyClient/drainMailbox()``): its outcome, and the acts of peers — reactions,
/// edits, deletes that arrived before the message they concern — that waited for the message it stored and were
/// applied now.
public struct ReceivedEnvelope: Sendable, Equatable {
    /// The envelope's own outcome.
    public let outcome: ReceiveOutcome
    /// Peers' acts released by the message this envelope stored, in the order they were applied (empty unless it
    /// stored one that acts waited for).
    public let released: [AppliedAct]

    /// A received envelope's record.
    public init(outcome: ReceiveOutcome, released: [AppliedAct] = []) {
        self.outcome = outcome
        self.released = released
    }

    /// The outcome followed by an ``ReceiveOutcome/acted(_:)`` for each released act: the sequence
    /// ``ParleyClient/listen(onOutcome:)`` reports.
    public var outcomes: [ReceiveOutcome] { [outcome] + released.map(ReceiveOutcome.acted) }
}
