import Foundation
import ParleyProtocol
import Testing

/// The multi-recipient format as a server parses it, on libsignal's own server-API vectors
/// (`java/server/.../SealedSenderMultiRecipientMessageTest.java`): device lists, repeated recipients, compact device
/// lists, excluded recipients, and what each recipient receives.
@Suite struct SealedSenderMultiRecipientVectorTests {
    static let alice = "9d0652a3dcc34d11975f74d61598733f"
    static let aliceKeys = String(repeating: "aa", count: 48)
    static let bob = "e80f7bbe5b94471ebd8c2173654ea3d1"
    static let bobKeys = String(repeating: "bb", count: 48)
    static let eve = "3f0f4734e3314434bd4f6d8f6ea6dcc7"
    static let mallory = "5d0881426fd74dbdaf00fdda1b3ce988"
    static let shared = String(repeating: "99", count: 34)

    static func bytes(_ parts: String...) -> Data {
        let hex = parts.joined()
        return Data(
            stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            })
    }

    static func serviceId(_ marker: String, _ uuid: String) throws -> ServiceId {
        try ServiceId.parseFrom(fixedWidthBinary: bytes(marker, uuid))
    }

    func devices(_ recipient: SealedSenderMultiRecipientMessage.Recipient?) -> [String] {
        (recipient?.devices ?? []).map { String(format: "%02x%04x", $0.deviceId, $0.registrationId) }
    }

    @Test func aciOnlyVersionWithAnotherDeviceLater() throws {
        let message = try SealedSenderMultiRecipientMessage(
            bytes: Self.bytes(
                "22", "03", Self.alice, "0111aa", Self.aliceKeys, Self.bob, "0111bb", Self.bobKeys, Self.bob, "0333bb", Self.bobKeys,
                Self.shared))
        #expect(message.recipients.count == 2)
        let bob = message.recipient(try Self.serviceId("00", Self.bob))
        #expect(devices(bob) == ["0111bb", "0333bb"])
        #expect(devices(message.recipient(try Self.serviceId("00", Self.alice))) == ["0111aa"])
        #expect(message.messageForRecipient(try #require(bob)) == Self.bytes("22", Self.bobKeys, Self.shared))
    }

    @Test func serviceIdVersionWithCompactListsRepeatsAndExclusions() throws {
        let compact = try SealedSenderMultiRecipientMessage(
            bytes: Self.bytes(
                "23", "03", "00", Self.alice, "0191aa", "0333aa", Self.aliceKeys, "01", Self.bob, "0111bb", Self.bobKeys,
                "00", Self.alice, "0505aa", Self.aliceKeys, Self.shared))
        let alice = compact.recipient(try Self.serviceId("00", Self.alice))
        #expect(devices(alice) == ["0111aa", "0333aa", "0505aa"])
        #expect(compact.messageForRecipient(try #require(alice)) == Self.bytes("22", Self.aliceKeys, Self.shared))
        let pniBob = compact.recipient(try Self.serviceId("01", Self.bob))
        let aciBob = try Self.serviceId("00", Self.bob)
        #expect(devices(pniBob) == ["0111bb"] && compact.recipient(aciBob) == nil)

        let excluded = try SealedSenderMultiRecipientMessage(
            bytes: Self.bytes(
                "23", "04", "00", Self.alice, "0191aa", "0333aa", Self.aliceKeys, "00", Self.eve, "00",
                "01", Self.bob, "0111bb", Self.bobKeys, "00", Self.mallory, "00", Self.shared))
        #expect(excluded.recipients.count == 2)
        #expect(excluded.excludedRecipients == [try Self.serviceId("00", Self.eve), try Self.serviceId("00", Self.mallory)])

        let repeated = try SealedSenderMultiRecipientMessage(
            bytes: Self.bytes(
                "23", "03", "00", Self.alice, "0111aa", Self.aliceKeys, "00", Self.alice, "0333aa", Self.aliceKeys,
                "00", Self.alice, "0333ff", Self.aliceKeys, Self.shared))
        #expect(
            devices(repeated.recipient(try Self.serviceId("00", Self.alice))) == ["0111aa", "0333aa", "0333ff"],
            "repeated devices are not diagnosed")
    }

    @Test func malformedMessagesAreRefused() {
        let refused: [Data] = [
            Self.bytes(
                "23", "03", "00", Self.alice, "0191aa", "0333aa", Self.aliceKeys, "00", Self.eve, "00", "00", Self.eve, "00", Self.shared),
            Self.bytes("23", "02", "00", Self.alice, "0191aa", "0333aa", Self.aliceKeys, "00", Self.alice, "00", Self.shared),
            Self.bytes("23", "02", "00", Self.alice, "00", "00", Self.alice, "0191aa", "0333aa", Self.aliceKeys, Self.shared),
            Self.bytes("23", "01", "00", Self.alice, "0191aa", "00", Self.aliceKeys, Self.shared),
            Self.bytes("23", "01", "00", Self.alice, "8011aa", Self.aliceKeys, Self.shared),  // device id 128
            Self.bytes("23", "01", "00", Self.alice, "0111aa", Self.aliceKeys, String(repeating: "99", count: 31)),
            Self.bytes("23", "ffffffff0f"), Self.bytes("23", "ffffffffff01"), Data(),
        ]
        for message in refused {
            #expect(throws: SignalError.self) { try SealedSenderMultiRecipientMessage(bytes: message) }
        }
        for version in ["11", "2f", "77"] {
            #expect { try SealedSenderMultiRecipientMessage(bytes: Self.bytes(version)) } throws: { error in
                if case SignalError.unknownCiphertextVersion = error { true } else { false }
            }
        }
    }

    /// One recipient named 15,000 times (what a 1 MiB body holds): its devices add up in place, not by copying the list
    /// each time (225 million device copies before).
    @Test func aRecipientNamedFifteenThousandTimesParsesInLinearTime() throws {
        var input = Self.bytes("22", "9875")  // 15,000 as a varint
        for index in 0..<15_000 {
            input.append(Self.bytes(Self.alice))
            input.append(contentsOf: [UInt8(index % 127 + 1), 0x11, 0xAA])
            input.append(Self.bytes(Self.aliceKeys))
        }
        input.append(Self.bytes(Self.shared))
        let message = try SealedSenderMultiRecipientMessage(bytes: input)
        #expect(message.recipients.count == 1)
        #expect(message.recipient(try Self.serviceId("00", Self.alice))?.devices.count == 15_000)
    }

    @Test func twentyFiveThousandExcludedRecipientsParseInLinearTime() throws {
        var input = Self.bytes("22", "a8c301")
        for index in 0..<25_000 {
            input.append(Data(repeating: 0, count: 14))
            input.append(contentsOf: [UInt8(index & 0xFF), UInt8(index >> 8), 0])
        }
        input.append(Data(repeating: 0, count: 48))
        #expect(try SealedSenderMultiRecipientMessage(bytes: input).excludedRecipients.count == 25_000)
    }
}
