import Foundation

/// A message in one device's mailbox.
public struct StoredEnvelope: Sendable, Equatable {
    /// Server-assigned id (lowercase UUID).
    public let guid: String
    /// The recipient account.
    public let accountId: String
    /// The recipient device.
    public let deviceId: UInt32
    /// The sender account; `nil` for sealed-sender envelopes, whose sender the server never learns.
    public let sourceAccountId: String?
    /// The sender device; `nil` for sealed-sender envelopes.
    public let sourceDeviceId: UInt32?
    /// `CiphertextMessage.MessageType` raw value.
    public let type: UInt8
    /// The ciphertext as the sender made it.
    public let content: [UInt8]
    /// The sender's timestamp (milliseconds since 1970).
    public let timestamp: UInt64
    /// When the server accepted it (milliseconds since 1970).
    public let serverTimestamp: UInt64

    /// An envelope.
    public init(
        guid: String, accountId: String, deviceId: UInt32, sourceAccountId: String?, sourceDeviceId: UInt32?,
        type: UInt8, content: [UInt8], timestamp: UInt64, serverTimestamp: UInt64
    ) {
        self.guid = guid
        self.accountId = accountId
        self.deviceId = deviceId
        self.sourceAccountId = sourceAccountId
        self.sourceDeviceId = sourceDeviceId
        self.type = type
        self.content = content
        self.timestamp = timestamp
        self.serverTimestamp = serverTimestamp
    }
}
