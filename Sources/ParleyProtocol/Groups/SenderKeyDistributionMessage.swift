import Foundation

/// Hands a sender's group chain key and signing key to the other members, over 1:1 sessions.
///
/// Wire (version 3): `0x33` ‖ libsignal's protobuf `{1 distribution_uuid, 2 chain_id, 3 iteration, 4 chain_key,
/// 5 signing_key}`, or Signal's C library's `{1 id, 2 iteration, 3 chainKey, 4 signingKey}`
/// (``SenderKeyMessageFormat``); both are read.
public struct SenderKeyDistributionMessage: Sendable {
    /// The group's distribution id; `nil` for a message in the C library's form, which does not carry it.
    public let distributionId: UUID?
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
    /// `format` chooses the wire form: libsignal's (the default) or the C library's, for peers on libsignal-protocol-c.
    public init(
        from sender: ProtocolAddress, distributionId: UUID, format: SenderKeyMessageFormat = .libsignal,
        store: SenderKeyStore, context: StoreContext
    ) throws {
        var record =
            try store.loadSenderKey(from: sender, distributionId: distributionId, context: context)
            ?? SenderKeyRecord(states: [])
        if record.states.isEmpty {
            let signingKey = PrivateKey.generate()
            record.add(
                SenderKeyState(
                    keyId: SecureRandom.value(in: 0...UInt32(Int32.max)),
                    chainKey: ChainKey(key: SecureRandom.bytes(32), index: 0),
                    signingKey: signingKey.publicKey, signingPrivateKey: signingKey))
            try store.storeSenderKey(from: sender, distributionId: distributionId, record: record, context: context)
        }
        let state = record.states[0]
        self.init(
            distributionId: format == .libsignal ? distributionId : nil, chainId: state.keyId,
            iteration: state.chainKey.index, chainKey: state.chainKey.key, signatureKey: try state.signingKey())
    }

    init(distributionId: UUID?, chainId: UInt32, iteration: UInt32, chainKey: [UInt8], signatureKey: PublicKey) {
        let body: [UInt8]
        if let distributionId {
            var message = Parley_Wire_DistributedSenderKeyDistributionMessage()
            message.distributionUuid = DistributionId.bytes(distributionId)
            message.chainID = chainId
            message.iteration = iteration
            message.chainKey = Data(chainKey)
            message.signingKey = signatureKey.serialize()
            body = ProtobufCoding.encode(message)
        } else {
            var message = Parley_Wire_SenderKeyDistributionMessage()
            message.id = chainId
            message.iteration = iteration
            message.chainKey = Data(chainKey)
            message.signingKey = signatureKey.serialize()
            body = ProtobufCoding.encode(message)
        }
        self.distributionId = distributionId
        self.chainId = chainId
        self.iteration = iteration
        self.chainKeyBytes = chainKey
        self.signatureKey = signatureKey
        self.serialized = [MessageVersion.byte(for: MessageVersion.x3dh)] + body
    }

    /// Parses wire bytes.
    /// - Throws: version errors, ``SignalError/protobufError(_:)``, ``SignalError/invalidKey(_:)``.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        let version = try MessageVersion.parse(raw.first)
        guard version == MessageVersion.x3dh else {
            throw SignalError.unrecognizedMessageVersion("sender key distribution message version \(version)")
        }
        let body = raw.dropFirst()
        let chainKey: Data
        let signingKey: Data
        switch SenderKeyMessageFormat.of(body: body) {
        case .libsignal:
            let message: Parley_Wire_DistributedSenderKeyDistributionMessage = try ProtobufCoding.decode(
                Array(body), what: "SenderKeyDistributionMessage")
            guard message.hasChainID, message.hasIteration, message.hasChainKey, message.hasSigningKey else {
                throw SignalError.protobufError("SenderKeyDistributionMessage lacks a field")
            }
            distributionId = try DistributionId.parse(message.distributionUuid)
            chainId = message.chainID
            iteration = message.iteration
            (chainKey, signingKey) = (message.chainKey, message.signingKey)
        case .protocolC:
            let message: Parley_Wire_SenderKeyDistributionMessage = try ProtobufCoding.decode(
                Array(body), what: "SenderKeyDistributionMessage")
            guard message.hasID, message.hasIteration, message.hasChainKey, message.hasSigningKey else {
                throw SignalError.protobufError("SenderKeyDistributionMessage lacks a field")
            }
            distributionId = nil
            chainId = message.id
            iteration = message.iteration
            (chainKey, signingKey) = (message.chainKey, message.signingKey)
        }
        guard chainKey.count == 32 else { throw SignalError.invalidKey("sender chain key is \(chainKey.count) bytes") }
        self.chainKeyBytes = Array(chainKey)
        self.signatureKey = try PublicKey(signingKey)
        self.serialized = raw
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }

    /// The 32-byte chain key at ``iteration``.
    public var chainKey: Data { Data(chainKeyBytes) }
}
