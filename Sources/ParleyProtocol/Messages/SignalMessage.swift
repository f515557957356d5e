import Foundation

/// A Double Ratchet message (`whisper`, type 2): version byte ‖ protobuf ‖ 8-byte truncated HMAC-SHA256.
public struct SignalMessage: Sendable {
    /// Length of the truncated MAC at the end of the message.
    static let macLength = 8

    /// The protocol version (3 or 4).
    let versionByte: UInt8
    /// The sender's current ratchet public key.
    public let senderRatchetKey: PublicKey
    /// The message's index in the sender's chain.
    public let counter: UInt32
    /// The length of the sender's previous chain.
    public let previousCounter: UInt32
    /// The AES-256-CBC encrypted body.
    let ciphertext: [UInt8]
    /// The SPQR `pq_ratchet` payload (field 5), empty when absent.
    public let pqRatchet: [UInt8]
    /// Sender and recipient as ServiceIds with device ids (field 6, 36 bytes, covered by the MAC), empty when absent.
    public let addresses: [UInt8]
    let serialized: [UInt8]

    /// Parses wire bytes.
    /// - Throws: ``SignalError/invalidMessage(_:)`` when too short, version errors, ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        versionByte = try MessageVersion.parse(raw.first)
        guard raw.count > 1 + Self.macLength else {
            throw SignalError.invalidMessage("SignalMessage of \(raw.count) bytes is too short")
        }
        let body: Parley_Wire_SignalMessage = try ProtobufCoding.decode(
            Array(raw[1..<(raw.count - Self.macLength)]), what: "SignalMessage")
        guard body.hasRatchetKey, body.hasCounter, body.hasCiphertext else {
            throw SignalError.protobufError("SignalMessage lacks a ratchet key, counter or ciphertext")
        }
        senderRatchetKey = try PublicKey(body.ratchetKey)
        counter = body.counter
        previousCounter = body.previousCounter
        self.ciphertext = Array(body.ciphertext)
        pqRatchet = Array(body.pqRatchet)
        addresses = Array(body.addresses)
        serialized = raw
    }

    /// Builds and MACs a message.
    init(
        version: UInt8, macKey: [UInt8], senderRatchetKey: PublicKey, counter: UInt32, previousCounter: UInt32,
        ciphertext: [UInt8], senderIdentityKey: [UInt8], receiverIdentityKey: [UInt8], pqRatchet: [UInt8] = [],
        addresses: [UInt8] = []
    ) {
        var body = Parley_Wire_SignalMessage()
        body.ratchetKey = senderRatchetKey.serialize()
        body.counter = counter
        body.previousCounter = previousCounter
        body.ciphertext = Data(ciphertext)
        if !pqRatchet.isEmpty { body.pqRatchet = Data(pqRatchet) }
        if !addresses.isEmpty { body.addresses = Data(addresses) }
        let unsigned = [MessageVersion.byte(for: version)] + ProtobufCoding.encode(body)
        let mac = Self.mac(for: unsigned, sender: senderIdentityKey, receiver: receiverIdentityKey, macKey: macKey)
        self.versionByte = version
        self.senderRatchetKey = senderRatchetKey
        self.counter = counter
        self.previousCounter = previousCounter
        self.ciphertext = ciphertext
        self.pqRatchet = pqRatchet
        self.addresses = addresses
        self.serialized = unsigned + mac
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }

    /// The protocol version (3 or 4).
    public var messageVersion: UInt32 { UInt32(versionByte) }

    /// The AES-256-CBC encrypted body.
    public var body: Data { Data(ciphertext) }

    /// Checks the MAC in constant time.
    public func verifyMac(sender: IdentityKey, receiver: IdentityKey, macKey: [UInt8]) -> Bool {
        verifyMac(sender: sender.serializedBytes, receiver: receiver.serializedBytes, macKey: macKey)
    }

    /// Checks the MAC in constant time, given the serialized identity keys.
    func verifyMac(sender: [UInt8], receiver: [UInt8], macKey: [UInt8]) -> Bool {
        let unsigned = serialized[0..<(serialized.count - Self.macLength)]
        let expected = Self.mac(for: unsigned, sender: sender, receiver: receiver, macKey: macKey)
        return ConstantTime.equals(expected, serialized[(serialized.count - Self.macLength)...])
    }

    private static func mac<C: Collection<UInt8>>(
        for unsigned: C, sender: [UInt8], receiver: [UInt8], macKey: [UInt8]
    ) -> [UInt8] {
        let input = sender + receiver + Array(unsigned)
        return Array(KDF.hmacSHA256(key: macKey, input).prefix(macLength))
    }
}
