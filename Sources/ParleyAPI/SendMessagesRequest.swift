/// `PUT /v1/messages/{accountId}`: one ciphertext for each device of the recipient.
public struct SendMessagesRequest: Codable, Sendable {
    /// One entry per recipient device (the sender's own devices, when sending to its own account, except itself).
    public let messages: [OutgoingMessage]
    /// The sender's timestamp for this message (milliseconds since 1970), the same for every device.
    public let timestamp: UInt64

    /// A send request.
    public init(messages: [OutgoingMessage], timestamp: UInt64) {
        self.messages = messages
        self.timestamp = timestamp
    }
}

/// The ciphertext for one recipient device.
public struct OutgoingMessage: Codable, Sendable {
    /// The recipient device.
    public let destinationDeviceId: UInt32
    /// The registration id the sender's session has for that device; a mismatch means the device was re-installed.
    public let destinationRegistrationId: UInt32
    /// `CiphertextMessage.MessageType` raw value: 2 whisper, 3 pre-key, 7 sender key, 8 plaintext; or 6
    /// (``unidentifiedSenderType``), a sealed-sender message, stored without its sender.
    public let type: UInt8
    /// The serialized message, base64 (at most 96 KiB decoded).
    public let content: String

    /// The type of a sealed-sender message (Signal's `Envelope.Type.UNIDENTIFIED_SENDER`): the server stores it without
    /// a source, and it is the only type a send with an `Unidentified-Access-Key` instead of credentials may carry.
    public static let unidentifiedSenderType: UInt8 = 6

    /// A per-device ciphertext.
    public init(destinationDeviceId: UInt32, destinationRegistrationId: UInt32, type: UInt8, content: String) {
        self.destinationDeviceId = destinationDeviceId
        self.destinationRegistrationId = destinationRegistrationId
        self.type = type
        self.content = content
    }
}

/// 409 answer: the request's device list does not match the recipient's devices.
public struct MismatchedDevicesResponse: Codable, Sendable, Equatable {
    /// `mismatched_devices`.
    public let code: String
    /// What to do about it.
    public let message: String
    /// Devices the recipient has that the request left out.
    public let missingDevices: [UInt32]
    /// Devices in the request that the recipient does not have.
    public let extraDevices: [UInt32]

    /// A 409 body.
    public init(missingDevices: [UInt32], extraDevices: [UInt32]) {
        self.code = "mismatched_devices"
        self.message = "fetch bundles for the missing devices, drop the extra ones, and send again"
        self.missingDevices = missingDevices
        self.extraDevices = extraDevices
    }
}

/// 410 answer: some devices were re-registered since the sender's sessions were made.
public struct StaleDevicesResponse: Codable, Sendable, Equatable {
    /// `stale_devices`.
    public let code: String
    /// What to do about it.
    public let message: String
    /// Devices whose registration id differs from the one in the request.
    public let staleDevices: [UInt32]

    /// A 410 body.
    public init(staleDevices: [UInt32]) {
        self.code = "stale_devices"
        self.message = "archive the sessions with these devices, fetch new bundles, and send again"
        self.staleDevices = staleDevices
    }
}

/// 200 answer to a send.
public struct SendMessagesResponse: Codable, Sendable, Equatable {
    /// Server time of acceptance, milliseconds since 1970.
    public let serverTimestamp: UInt64

    /// A send result.
    public init(serverTimestamp: UInt64) { self.serverTimestamp = serverTimestamp }
}
