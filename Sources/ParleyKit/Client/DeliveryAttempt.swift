/// How far a verb that queues something to send (``ParleyClient/send(_:to:attempt:uploadProgress:)``, a reaction, an
/// edit, a group change…) goes before it returns. What it queued is durable from the start: whatever it does not
/// send now goes out with a later verb or while ``ParleyClient/listen(onOutcome:)`` runs.
public enum DeliveryAttempt: Sendable, Equatable {
    /// Queue only: nothing is sent before the verb returns (a front door that sends in batches, or `listen` running
    /// beside it, sends it).
    case queueOnly
    /// Run the jobs that are due now, once (a job waiting out a retry's backoff keeps waiting).
    case dueJobs
    /// Run every queued job now, also those waiting out a retry's backoff: a person asked for it, the server may be back.
    case everything
}
