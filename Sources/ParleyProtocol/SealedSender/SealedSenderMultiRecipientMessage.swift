import Foundation

/// A sealed-sender version 2 message as a sender uploads it: one encrypted content for many recipients, each with its
/// devices and its share of the key material. A server parses it to check the device lists and hands each device its
/// own message (``messageForRecipient(_:)``) without learning who sent it or what it says.
///
/// Wire (libsignal `SentMessage`): version `0x23` (recipients as 17-byte fixed-width service ids; `0x22`: bare ACI
/// UUIDs) ‖ varint count ‖ per recipient: service id, then devices (device id byte, big-endian 16 bits: the "more
/// devices" flag `0x8000` and a 14-bit registration id), then `C` (32) ‖ `AT` (16) — or, for an excluded recipient, the
/// service id and a `0x00` byte — ‖ the ephemeral public key (32) ‖ the content encrypted once.
public struct SealedSenderMultiRecipientMessage: Sendable {
    /// One recipient: its devices and where its key material sits in the message.
    public struct Recipient: Sendable {
        /// The devices the sender encrypted for, with the registration ids it saw in its sessions.
        public internal(set) var devices: [Device]
        let keyMaterial: Range<Int>
    }

    /// A device of a recipient.
    public struct Device: Sendable, Hashable {
        /// The device id (1…127).
        public let deviceId: UInt32
        /// The registration id the sender's session with that device had (14 bits).
        public let registrationId: UInt16
    }

    /// The version byte (`0x23`, or `0x22` for the older form with ACI UUIDs).
    public let version: UInt8
    /// The recipients that get the message, in the order the sender wrote them.
    public let recipients: [(serviceId: ServiceId, recipient: Recipient)]
    /// Recipients the sender names without sending to them (so a server can check the sender knew the whole group).
    public let excludedRecipients: [ServiceId]
    private let bytes: [UInt8]
    private let sharedBytesOffset: Int

    /// Parses an uploaded multi-recipient message. The recipient count is bounded by the bytes there are (each entry
    /// takes at least 18).
    /// - Throws: ``SignalError/invalidSealedSenderMessage(_:)`` for an empty or truncated message, a device id outside
    ///   1…127, a recipient named twice as excluded, or a missing ephemeral key;
    ///   ``SignalError/unknownCiphertextVersion(_:)`` for another version byte.
    public init<Bytes: ContiguousBytes>(bytes input: Bytes) throws {
        let bytes = input.byteArray
        guard let version = bytes.first else { throw SignalError.invalidSealedSenderMessage("the message is empty") }
        guard version == SealedSenderV2.sentServiceIdVersion || version == SealedSenderV2.sentUUIDVersion else {
            throw SignalError.unknownCiphertextVersion("sealed sender multi-recipient version 0x\(String(version, radix: 16))")
        }
        var offset = 1
        func take(_ count: Int) throws -> Range<Int> {
            guard bytes.count - offset >= count else { throw SignalError.invalidSealedSenderMessage("the message is truncated") }
            defer { offset += count }
            return offset..<(offset + count)
        }
        let count = try Varint.decode(bytes, at: &offset)
        var recipients: [(serviceId: ServiceId, recipient: Recipient)] = []
        var positions: [ServiceId: Int] = [:]
        var excluded: [ServiceId] = []
        var excludedSet: Set<ServiceId> = []
        for _ in 0..<count {
            let serviceId: ServiceId
            do {
                serviceId =
                    version == SealedSenderV2.sentServiceIdVersion
                    ? try ServiceId.parseFrom(fixedWidthBinary: bytes[try take(17)])
                    : Aci.parseFrom(uuidBytes: bytes[try take(16)])
            } catch is ServiceIdError {
                throw SignalError.invalidSealedSenderMessage("a recipient is not a service id")
            }
            var devices: [Device] = []
            while true {
                let deviceId = bytes[try take(1).lowerBound]
                if deviceId == 0 {
                    guard devices.isEmpty else { throw SignalError.invalidSealedSenderMessage("device id 0 after devices") }
                    break
                }
                guard deviceId <= 127 else { throw SignalError.invalidSealedSenderMessage("device id \(deviceId) is over 127") }
                let field = try take(2)
                let value = UInt16(bytes[field.lowerBound]) << 8 | UInt16(bytes[field.lowerBound + 1])
                devices.append(Device(deviceId: UInt32(deviceId), registrationId: value & 0x3FFF))
                if value & 0x8000 == 0 { break }
            }
            let keyMaterial =
                devices.isEmpty
                ? 0..<0 : try take(SealedSenderV2.messageKeyLength + SealedSenderV2.authenticationTagLength)
            if let position = positions[serviceId] {
                guard !devices.isEmpty, !recipients[position].recipient.devices.isEmpty else {
                    throw SignalError.invalidSealedSenderMessage("recipient \(serviceId.logString) named twice, once without devices")
                }
                // In place: a recipient named thousands of times must not copy its growing list each time.
                recipients[position].recipient.devices.append(contentsOf: devices)
            } else if devices.isEmpty {
                guard excludedSet.insert(serviceId).inserted else {
                    throw SignalError.invalidSealedSenderMessage("recipient \(serviceId.logString) excluded twice")
                }
                excluded.append(serviceId)
            } else {
                guard !excludedSet.contains(serviceId) else {
                    throw SignalError.invalidSealedSenderMessage("recipient \(serviceId.logString) both excluded and sent to")
                }
                positions[serviceId] = recipients.count
                recipients.append((serviceId, Recipient(devices: devices, keyMaterial: keyMaterial)))
            }
        }
        guard bytes.count - offset >= SealedSenderV2.publicKeyLength else {
            throw SignalError.invalidSealedSenderMessage("the message lacks its ephemeral key")
        }
        self.version = version
        self.recipients = recipients
        self.excludedRecipients = excluded
        self.bytes = bytes
        self.sharedBytesOffset = offset
    }

    /// The recipient `serviceId`, when the message is sent to it.
    public func recipient(_ serviceId: ServiceId) -> Recipient? {
        recipients.first { $0.serviceId == serviceId }?.recipient
    }

    /// What the server delivers to each device of `recipient`: `0x22` ‖ its `C` and `AT` ‖ the ephemeral key and the
    /// shared content. Every device of one recipient gets the same bytes.
    public func messageForRecipient(_ recipient: Recipient) -> Data {
        var message = Data([SealedSenderV2.receivedVersion])
        message.append(contentsOf: bytes[recipient.keyMaterial])
        message.append(contentsOf: bytes[sharedBytesOffset...])
        return message
    }
}
