import Foundation

/// SignalMessage field 6 (libsignal `protocol.rs` `serialize_addresses`): sender then recipient, each a ServiceId
/// in its 17-byte fixed-width form (kind byte — 0 ACI, 1 PNI — ‖ UUID) and a one-byte device id.
enum MessageAddresses {
    static let length = 36

    /// The field for `sender` → `recipient`, or `nil` when a name is not a ServiceId or a device id exceeds 255.
    static func encode(sender: ProtocolAddress, recipient: ProtocolAddress) -> [UInt8]? {
        guard let from = encode(sender), let to = encode(recipient) else { return nil }
        return from + to
    }

    /// Checks a received field: absent is accepted; present, it must be 36 bytes naming `sender` (and `recipient`,
    /// when known).
    ///
    /// - Throws: ``SignalError/invalidMessage(_:)`` when it does not.
    static func check(_ field: [UInt8], sender: ProtocolAddress, recipient: ProtocolAddress?) throws {
        guard !field.isEmpty else { return }
        guard field.count == length, let expectedSender = encode(sender), Array(field[0..<18]) == expectedSender else {
            throw SignalError.invalidMessage("the message's addresses do not name its sender")
        }
        if let recipient {
            guard let expectedRecipient = encode(recipient), Array(field[18..<36]) == expectedRecipient else {
                throw SignalError.invalidMessage("the message's addresses do not name this device as its recipient")
            }
        }
    }

    private static func encode(_ address: ProtocolAddress) -> [UInt8]? {
        guard address.deviceId <= 255 else { return nil }
        let (kind, text): (UInt8, Substring) =
            address.name.hasPrefix("PNI:") ? (1, address.name.dropFirst(4)) : (0, Substring(address.name))
        guard let uuid = UUID(uuidString: String(text)) else { return nil }
        return [kind] + withUnsafeBytes(of: uuid.uuid) { Array($0) } + [UInt8(address.deviceId)]
    }
}
