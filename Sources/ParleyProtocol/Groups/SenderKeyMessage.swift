import Foundation

/// A group message (`senderKey`, type 7): `0x33` ‖ protobuf `{1 id, 2 iteration, 3 ciphertext}` ‖ 64-byte XEdDSA signature.
public struct SenderKeyMessage: Sendable {
    static let signatureLength = 64

    /// The sender-key chain id.
    public let chainId: UInt32
    /// The message's position in the chain.
    public let iteration: UInt32
    /// The AES-256-CBC encrypted body.
    let ciphertextBytes: [UInt8]
    let serialized: [UInt8]

    /// Parses wire bytes (the signature is checked by ``groupDecrypt(_:from:distributionId:store:context:)``).
    /// - Throws: ``SignalError/invalidMessage(_:)`` when too short, version errors, ``SignalError/protobufError(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        let version = try MessageVersion.parse(raw.first)
        guard version == MessageVersion.x3dh else {
            throw SignalError.unrecognizedMessageVersion("sender key message version \(version)")
        }
        guard raw.count > 1 + Self.signatureLength else {
            throw SignalError.invalidMessage("SenderKeyMessage of \(raw.count) bytes is too short")
        }
        let body: Parley_Wire_SenderKeyMessage = try ProtobufCoding.decode(
            Array(raw[1..<(raw.count - Self.signatureLength)]), what: "SenderKeyMessage")
        guard body.hasID, body.hasIteration, body.hasCiphertext else {
            throw SignalError.protobufError("SenderKeyMessage lacks a field")
        }
        chainId = body.id
        iteration = body.iteration
        ciphertextBytes = Array(body.ciphertext)
        serialized = raw
    }

    init(chainId: UInt32, iteration: UInt32, ciphertext: [UInt8], signingKey: PrivateKey) {
        var body = Parley_Wire_SenderKeyMessage()
        body.id = chainId
        body.iteration = iteration
        body.ciphertext = Data(ciphertext)
        let unsigned = [MessageVersion.byte(for: MessageVersion.x3dh)] + ProtobufCoding.encode(body)
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
