import Foundation

/// A group message (`senderKey`, type 7): `0x33` ‖ protobuf ‖ 64-byte XEdDSA signature over what precedes it.
///
/// The protobuf is libsignal's `{1 distribution_uuid, 2 chain_id, 3 iteration, 4 ciphertext}` or Signal's C
/// library's `{1 id, 2 iteration, 3 ciphertext}` (``SenderKeyMessageFormat``); both are read.
public struct SenderKeyMessage: Sendable {
    static let signatureLength = 64

    /// The group's distribution id; `nil` for a message in the C library's form, which does not carry it.
    public let distributionId: UUID?
    /// The sender-key chain id.
    public let chainId: UInt32
    /// The message's position in the chain.
    public let iteration: UInt32
    /// The AES-256-CBC encrypted body.
    let ciphertextBytes: [UInt8]
    let serialized: [UInt8]

    /// Parses wire bytes (the signature is checked by ``groupDecrypt(_:from:store:context:)``).
    /// - Throws: ``SignalError/invalidMessage(_:)`` when too short, version errors, ``SignalError/protobufError(_:)``
    ///   for a body that does not parse, lacks a field, or has a distribution id that is not 16 bytes.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        let version = try MessageVersion.parse(raw.first)
        guard version == MessageVersion.x3dh else {
            throw SignalError.unrecognizedMessageVersion("sender key message version \(version)")
        }
        guard raw.count > 1 + Self.signatureLength else {
            throw SignalError.invalidMessage("SenderKeyMessage of \(raw.count) bytes is too short")
        }
        let body = raw[1..<(raw.count - Self.signatureLength)]
        switch SenderKeyMessageFormat.of(body: body) {
        case .libsignal:
            let message: Parley_Wire_DistributedSenderKeyMessage = try ProtobufCoding.decode(Array(body), what: "SenderKeyMessage")
            guard message.hasChainID, message.hasIteration, message.hasCiphertext else {
                throw SignalError.protobufError("SenderKeyMessage lacks a field")
            }
            distributionId = try DistributionId.parse(message.distributionUuid)
            chainId = message.chainID
            iteration = message.iteration
            ciphertextBytes = Array(message.ciphertext)
        case .protocolC:
            let message: Parley_Wire_SenderKeyMessage = try ProtobufCoding.decode(Array(body), what: "SenderKeyMessage")
            guard message.hasID, message.hasIteration, message.hasCiphertext else {
                throw SignalError.protobufError("SenderKeyMessage lacks a field")
            }
            distributionId = nil
            chainId = message.id
            iteration = message.iteration
            ciphertextBytes = Array(message.ciphertext)
        }
        serialized = raw
    }

    /// Makes and signs a message; with a `distributionId` in libsignal's form, without in the C library's.
    init(distributionId: UUID?, chainId: UInt32, iteration: UInt32, ciphertext: [UInt8], signingKey: PrivateKey) {
        let body: [UInt8]
        if let distributionId {
            var message = Parley_Wire_DistributedSenderKeyMessage()
            message.distributionUuid = DistributionId.bytes(distributionId)
            message.chainID = chainId
            message.iteration = iteration
            message.ciphertext = Data(ciphertext)
            body = ProtobufCoding.encode(message)
        } else {
            var message = Parley_Wire_SenderKeyMessage()
            message.id = chainId
            message.iteration = iteration
            message.ciphertext = Data(ciphertext)
            body = ProtobufCoding.encode(message)
        }
        let unsigned = [MessageVersion.byte(for: MessageVersion.x3dh)] + body
        self.distributionId = distributionId
        self.chainId = chainId
        self.iteration = iteration
        self.ciphertextBytes = ciphertext
        self.serialized = unsigned + signingKey.signature(over: unsigned)
    }

    /// The encrypted body.
    public var ciphertext: Data { Data(ciphertextBytes) }

    /// Whether the sender's signing key `key` signed this message (LibSignalClient's label).
    public func verifySignature(against key: PublicKey) throws -> Bool { try verifySignature(key) }

    /// Whether the signature verifies under the sender's signing key.
    public func verifySignature(_ key: PublicKey) throws -> Bool {
        let split = serialized.count - Self.signatureLength
        return try key.verifySignature(message: Array(serialized[..<split]), signature: Array(serialized[split...]))
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }
}
