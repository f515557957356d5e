import Foundation

/// Hands a sender's group chain key and signing key to the other members, over 1:1 sessions.
///
/// Wire (version 3, as Signal's C library): `0x33` ‖ protobuf `{1 id, 2 iteration, 3 chainKey, 4 signingKey}`.
public struct SenderKeyDistributionMessage: Sendable {
    /// The sender-key chain id.
    public let chainId: UInt32
    /// The chain position the receiver starts at.
    public let iteration: UInt32
    /// The 32-byte chain key at that position.
    let chainKeyBytes: [UInt8]
    /// The key that signs the sender's group messages.
    public let signatureKey: PublicKey
    let serialized: [UInt8]

    /// Makes the distribution message for `sender`'s chain in `distributionId`, creating the chain if there is none.
    public init(from sender: ProtocolAddress, distributionId: UUID, store: SenderKeyStore, context: StoreContext) throws {
        var record = try store.loadSenderKey(from: sender, distributionId: distributionId, context: context)
            ?? SenderKeyRecord(states: [])
        if record.states.isEmpty {
            let signingKey = PrivateKey.generate()
            record.add(SenderKeyState(
                keyId: SecureRandom.value(in: 0...UInt32(Int32.max)),
                chainKey: ChainKey(key: SecureRandom.bytes(32), index: 0),
                signingKey: signingKey.publicKey, signingPrivateKey: signingKey))
            try store.storeSenderKey(from: sender, distributionId: distributionId, record: record, context: context)
        }
        let state = record.states[0]
        self.init(chainId: state.keyId, iteration: state.chainKey.index, chainKey: state.chainKey.key, signatureKey: try state.signingKey())
    }

    init(chainId: UInt32, iteration: UInt32, chainKey: [UInt8], signatureKey: PublicKey) {
        var body = Parley_Wire_SenderKeyDistributionMessage()
        body.id = chainId
        body.iteration = iteration
        body.chainKey = Data(chainKey)
        body.signingKey = Data(signatureKey.serialize())
        self.chainId = chainId
        self.iteration = iteration
        self.chainKeyBytes = chainKey
        self.signatureKey = signatureKey
        self.serialized = [MessageVersion.byte(for: MessageVersion.x3dh)] + ProtobufCoding.encode(body)
    }

    /// Parses wire bytes.
    /// - Throws: version errors, ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        let version = try MessageVersion.parse(raw.first)
        guard version == MessageVersion.x3dh else {
            throw SignalError.unrecognizedMessageVersion("sender key distribution message version \(version)")
        }
        let body: Parley_Wire_SenderKeyDistributionMessage = try ProtobufCoding.decode(Array(raw.dropFirst()), what: "SenderKeyDistributionMessage")
        guard body.hasID, body.hasIteration, body.hasChainKey, body.hasSigningKey else {
            throw SignalError.protobufError("SenderKeyDistributionMessage lacks a field")
        }
        guard body.chainKey.count == 32 else { throw SignalError.invalidKey("sender chain key is \(body.chainKey.count) bytes") }
        self.chainId = body.id
        self.iteration = body.iteration
        self.chainKeyBytes = Array(body.chainKey)
        self.signatureKey = try PublicKey(body.signingKey)
        self.serialized = raw
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }

    /// The 32-byte chain key at ``iteration``.
    public var chainKey: Data { Data(chainKeyBytes) }
}
