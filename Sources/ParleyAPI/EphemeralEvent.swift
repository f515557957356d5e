/// A signal that only matters while both sides are online (typing indicators, presence-style receipts).
///
/// The server relays it to the destination account's connected devices and forgets it: it is never stored
/// and never retried. `content` is opaque to the server (clients encrypt it end to end).
public struct EphemeralEvent: Codable, Sendable, Equatable {
    /// Client → server: the account to relay to. Server → client: the account it was sent to.
    public let destinationAccountId: String
    /// Set by the server on delivery: the sending account.
    public let sourceAccountId: String?
    /// Set by the server on delivery: the sending device.
    public let sourceDeviceId: UInt32?
    /// A short label clients agree on, such as `typing` (at most 32 characters).
    public let kind: String
    /// Opaque payload, base64 (at most 4 KiB decoded).
    public let content: String
    /// The sender's timestamp, milliseconds since 1970.
    public let timestamp: UInt64

    /// An event.
    public init(
        destinationAccountId: String, sourceAccountId: String? = nil, sourceDeviceId: UInt32? = nil, kind: String,
        content: String, timestamp: UInt64
    ) {
        self.destinationAccountId = destinationAccountId
        self.sourceAccountId = sourceAccountId
        self.sourceDeviceId = sourceDeviceId
        self.kind = kind
        self.content = content
        self.timestamp = timestamp
    }
}
