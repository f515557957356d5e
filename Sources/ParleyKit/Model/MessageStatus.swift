/// Where a message stands.
public enum MessageStatus: String, Sendable, Codable {
    /// Stored locally, send job pending.
    case sending
    /// The server accepted it for every device.
    case sent
    /// A recipient device acknowledged it.
    case delivered
    /// The recipient read it.
    case read
    /// Sending gave up; `failure_reason` says why.
    case failed
    /// An incoming message.
    case received
    /// An incoming message that could not be decrypted (kept so the failure is visible).
    case undecryptable
}
