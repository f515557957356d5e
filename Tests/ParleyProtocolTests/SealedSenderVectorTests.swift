import Foundation
import Testing

@testable import ParleyProtocol

/// A committed sealed-sender message with the recipient's keys: guards the envelope, certificate and
/// content formats against accidental change. Regenerate (only on a deliberate format change) with
/// `PARLEY_REGENERATE_VECTORS=1 swift test --filter SealedSenderVectorTests`.
struct SealedSenderVector: Codable {
    var comment = "Parley's own sealed-sender v1 vector (Tests/ParleyProtocolTests/SealedSenderVectorTests.swift)."
    let recipientIdentityKeyPair: String
    let recipientRegistrationId: UInt32
    let signedPreKey: String
    let preKey: String
    let kyberPreKey: String
    let trustRoot: String
    let timestamp: UInt64
    let senderUuid: String
    let senderDevice: UInt32
    let plaintext: String
    let sealed: String
}

@Suite struct SealedSenderVectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors/sealed_sender_kat.json")

    @Test func committedVectorStillOpens() throws {
        if ProcessInfo.processInfo.environment["PARLEY_REGENERATE_VECTORS"] == "1" { try Self.regenerate() }
        let vector = try JSONDecoder().decode(SealedSenderVector.self, from: Data(contentsOf: Self.file))
        let bytes = { (text: String) in [UInt8](Data(base64Encoded: text)!) }
        let store = InMemorySignalProtocolStore(
            identity: try IdentityKeyPair(bytes: bytes(vector.recipientIdentityKeyPair)), registrationId: vector.recipientRegistrationId)
        let context = NullContext()
        let signed = try SignedPreKeyRecord(bytes: bytes(vector.signedPreKey))
        let preKey = try PreKeyRecord(bytes: bytes(vector.preKey))
        let kyber = try KyberPreKeyRecord(bytes: bytes(vector.kyberPreKey))
        try store.storeSignedPreKey(signed, id: signed.id, context: context)
        try store.storePreKey(preKey, id: preKey.id, context: context)
        try store.storeKyberPreKey(kyber, id: kyber.id, context: context)
        let result = try sealedSenderDecrypt(
            message: bytes(vector.sealed), from: try SealedSenderAddress(e164: nil, uuidString: "recipient", deviceId: 1),
            trustRoot: try PublicKey(bytes(vector.trustRoot)), timestamp: vector.timestamp, sessionStore: store,
            identityStore: store, preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context)
        #expect(String(decoding: result.message, as: UTF8.self) == vector.plaintext)
        #expect(result.sender.uuidString == vector.senderUuid && result.sender.deviceId == vector.senderDevice)
        #expect(try store.loadSession(for: try result.sender.protocolAddress, context: context)?.sessionVersion == 4)
    }

    static func regenerate() throws {
        let sender = TestParty("4f1c2a9e-8d3b-4c6f-9a7e-2b5d8c1e3f60", deviceId: 2)
        let recipient = TestParty("recipient")
        let trustRoot = PrivateKey.generate()
        let serverKey = PrivateKey.generate()
        let bundle = try recipient.bundle(preKeyId: 31, signedPreKeyId: 11, kyberPreKeyId: 41)
        try sender.process(bundle, from: recipient)
        let timestamp: UInt64 = 1_800_000_000_000
        let certificate = try SenderCertificate(
            sender: try SealedSenderAddress(e164: nil, uuidString: sender.address.name, deviceId: 2),
            publicKey: sender.identity.publicKey, expiration: timestamp + 86_400_000,
            signerCertificate: try ServerCertificate(keyId: 1, publicKey: serverKey.publicKey, trustRoot: trustRoot), signerKey: serverKey)
        let plaintext = "sealed sender known answer"
        let sealed = try sealedSenderEncrypt(
            message: Array(plaintext.utf8), for: recipient.address, from: certificate, sessionStore: sender.store,
            identityStore: sender.store, context: sender.context)
        let b64 = { (bytes: Data) in bytes.base64EncodedString() }
        let ctx = recipient.context
        let vector = SealedSenderVector(
            recipientIdentityKeyPair: b64(recipient.identity.serialize()),
            recipientRegistrationId: try recipient.store.localRegistrationId(context: ctx),
            signedPreKey: b64(try recipient.store.loadSignedPreKey(id: 11, context: ctx).serialize()),
            preKey: b64(try recipient.store.loadPreKey(id: 31, context: ctx).serialize()),
            kyberPreKey: b64(try recipient.store.loadKyberPreKey(id: 41, context: ctx).serialize()),
            trustRoot: b64(trustRoot.publicKey.serialize()), timestamp: timestamp, senderUuid: sender.address.name,
            senderDevice: 2, plaintext: plaintext, sealed: b64(sealed))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(vector).write(to: file)
    }
}
