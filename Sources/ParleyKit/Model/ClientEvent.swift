/// Something that happened to this account, as ``ParleyClient/events()`` reports it: the one stream a front door
/// follows (the CLI's `listen`, the daemon, the REST layer's receive socket).
public enum ClientEvent: Sendable, Equatable {
    /// An envelope or ephemeral event was received and processed: a message stored, a receipt, a reaction, an edit or a
    /// delete applied, someone typing, a group change (a stored group-change message).
    case received(ReceiveOutcome)
    /// Sending was given up on (refused by the server, or too many busy answers): the message `messageId` is marked
    /// failed, or the act sent at `timestamp` (a reaction, edit, delete, timer or group change) will not go out.
    case sendFailed(messageId: Int64?, timestamp: UInt64?, reason: String)
    /// `listen`'s connection to the server came up (`true`) or went down (`false`; it reconnects with backoff, and what
    /// is sent meanwhile is queued).
    case connection(up: Bool)
}
