import Foundation
import ParleyProtocol

/// Valid protocol artifacts made once by Parley's own encoders: the seeds the targets start from, and the fixed
/// stores the decrypting targets use.
struct Fixtures: @unchecked Sendable {
    static let shared = Fixtures()

    let context = NullContext()
    let alice = InMemorySignalProtocolStore()
    let bob = InMemorySignalProtocolStore()
    let aliceAddress = try! ProtocolAddress(name: "9d0652a3-dcc3-4d11-975f-74d61598733f", deviceId: 1)
    let bobAddress = try! ProtocolAddress(name: "796abedb-ca4e-4f18-8803-1fab5b5f1bbc", deviceId: 1)
    let distributionId = UUID(uuidString: "d1d1d1d1-7000-11eb-b32a-33b8a8a487a6")!
    let trustRoot = PrivateKey.generate()
    /// Alice → Bob: a pre-key message, then Bob's answer and Alice's next message (whisper messages).
    let preKeyMessage: [UInt8]
    let whisperMessages: [[UInt8]]
    let senderKeyDistribution: [UInt8]
    let senderKeyMessage: [UInt8]
    /// The same two sender-key messages in Signal's C library's form (no distribution id).
    let senderKeyDistributionC: [UInt8]
    let senderKeyMessageC: [UInt8]
    let senderCertificate: SenderCertificate
    let serverCertificate: ServerCertificate
    let sealedEnvelope: [UInt8]
    /// A sealed sender v2 message to Bob as uploaded (`0x23`) and as delivered (`0x22`).
    let sealedMultiRecipient: [UInt8]
    let sealedV2Delivered: [UInt8]
    let sealedContent: [UInt8]
    let sessionRecords: [[UInt8]]
    let bundleRecords: [[UInt8]]

    private init() {
        let identity = try! bob.identityKeyPair(context: context)
        let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity.privateKey)
        let preKey = PreKeyRecord.generate(id: 1)
        let kem = KyberPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity.privateKey)
        try! bob.storeSignedPreKey(signed, id: 1, context: context)
        try! bob.storePreKey(preKey, id: 1, context: context)
        try! bob.storeKyberPreKey(kem, id: 1, context: context)
        let bundle = try! PreKeyBundle(
            registrationId: try! bob.localRegistrationId(context: context), deviceId: 1, prekeyId: 1, prekey: try! preKey.publicKey(),
            signedPrekeyId: 1, signedPrekey: try! signed.publicKey(), signedPrekeySignature: signed.signature,
            identity: identity.identityKey, kyberPrekeyId: 1, kyberPrekey: try! kem.publicKey(), kyberPrekeySignature: kem.signature)
        try! processPreKeyBundle(bundle, for: bobAddress, sessionStore: alice, identityStore: alice, context: context)
        let first = try! signalEncrypt(
            message: Array("first".utf8), for: bobAddress, sessionStore: alice, identityStore: alice, context: context)
        preKeyMessage = Array(first.serialize())
        _ = try! signalDecryptPreKey(
            message: try! PreKeySignalMessage(bytes: preKeyMessage), from: aliceAddress, sessionStore: bob, identityStore: bob,
            preKeyStore: bob, signedPreKeyStore: bob, kyberPreKeyStore: bob, context: context)
        let reply = try! signalEncrypt(
            message: Array("reply".utf8), for: aliceAddress, sessionStore: bob, identityStore: bob, context: context)
        _ = try! signalDecrypt(
            message: try! SignalMessage(bytes: reply.serialize()), from: bobAddress, sessionStore: alice,
            identityStore: alice, context: context)
        let next = try! signalEncrypt(
            message: Array("next".utf8), for: bobAddress, sessionStore: alice, identityStore: alice, context: context)
        whisperMessages = [Array(reply.serialize()), Array(next.serialize())]

        let distribution = try! SenderKeyDistributionMessage(
            from: aliceAddress, distributionId: distributionId, store: alice, context: context)
        senderKeyDistribution = Array(distribution.serialize())
        senderKeyMessage = Array(
            try! groupEncrypt(
                Array("group".utf8), from: aliceAddress, distributionId: distributionId, store: alice,
                context: context
            ).serialize())
        senderKeyDistributionC = Array(
            try! SenderKeyDistributionMessage(
                from: aliceAddress, distributionId: distributionId, format: .protocolC, store: alice, context: context
            ).serialize())
        senderKeyMessageC = Array(
            try! groupEncrypt(
                Array("group".utf8), from: aliceAddress, distributionId: distributionId,
                format: .protocolC, store: alice, context: context
            ).serialize())

        let serverKey = PrivateKey.generate()
        serverCertificate = try! ServerCertificate(keyId: 1, publicKey: serverKey.publicKey, trustRoot: trustRoot)
        senderCertificate = try! SenderCertificate(
            sender: try! SealedSenderAddress(e164: nil, uuidString: aliceAddress.name, deviceId: 1),
            publicKey: try! alice.identityKeyPair(context: context).publicKey, expiration: UInt64.max / 2,
            signerCertificate: serverCertificate, signerKey: serverKey)
        let inner = try! signalEncrypt(
            message: Array("sealed".utf8), for: bobAddress, sessionStore: alice, identityStore: alice, context: context)
        let content = UnidentifiedSenderMessageContent(inner, from: senderCertificate)
        sealedContent = Array(content.serialize())
        sealedEnvelope = Array(
            try! sealedSenderEncrypt(
                message: Array("sealed".utf8), for: bobAddress, from: senderCertificate,
                sessionStore: alice, identityStore: alice, context: context))
        sealedMultiRecipient = Array(
            try! sealedSenderMultiRecipientEncrypt(
                content, for: [bobAddress], excludedRecipients: [Aci(fromUUID: distributionId)], identityStore: alice,
                sessionStore: alice, context: context))
        sealedV2Delivered = Array(
            try! SealedSenderMultiRecipientMessage(bytes: sealedMultiRecipient).messageForRecipient(
                try! SealedSenderMultiRecipientMessage(bytes: sealedMultiRecipient).recipients[0].recipient))
        sessionRecords = [
            Array(try! alice.loadSession(for: bobAddress, context: context)!.serialize()),
            Array(try! bob.loadSession(for: aliceAddress, context: context)!.serialize()),
        ]
        bundleRecords = [Array(preKey.serialize()), Array(signed.serialize()), Array(kem.serialize())]
    }
}
