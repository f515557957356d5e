import Foundation
import ParleyProtocol

/// One device of the walkthrough: an identity, in-memory stores, and its prekeys.
struct DemoParty {
    let name: String
    let address: ProtocolAddress
    let store: InMemorySignalProtocolStore
    let context = NullContext()

    init(_ name: String) throws {
        self.name = name
        address = try ProtocolAddress(name: name, deviceId: 1)
        store = InMemorySignalProtocolStore()
    }

    var identity: IdentityKeyPair { get throws { try store.identityKeyPair(context: context) } }

    /// Generates and stores a signed prekey, a one-time prekey and a Kyber1024 prekey; returns the bundle.
    func publishBundle() throws -> PreKeyBundle {
        let identity = try self.identity
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let signed = SignedPreKeyRecord.generate(id: 1, timestamp: now, signedBy: identity.privateKey)
        let oneTime = PreKeyRecord.generate(id: 100)
        let kyber = KyberPreKeyRecord.generate(type: .kyber1024, id: 1000, timestamp: now, signedBy: identity.privateKey)
        try store.storeSignedPreKey(signed, id: 1, context: context)
        try store.storePreKey(oneTime, id: 100, context: context)
        try store.storeKyberPreKey(kyber, id: 1000, context: context)
        return try PreKeyBundle(
            registrationId: try store.localRegistrationId(context: context), deviceId: 1,
            prekeyId: 100, prekey: try oneTime.publicKey(), signedPrekeyId: 1, signedPrekey: try signed.publicKey(),
            signedPrekeySignature: signed.signature, identity: identity.identityKey,
            kyberPrekeyId: 1000, kyberPrekey: try kyber.publicKey(), kyberPrekeySignature: kyber.signature)
    }

    func encrypt(_ text: String, to other: DemoParty) throws -> CiphertextMessage {
        try encrypt(bytes: Array(text.utf8), to: other)
    }

    func encrypt(bytes: [UInt8], to other: DemoParty) throws -> CiphertextMessage {
        try signalEncrypt(message: bytes, for: other.address, sessionStore: store, identityStore: store, context: context)
    }

    func decrypt(_ message: CiphertextMessage, from other: DemoParty) throws -> String {
        String(decoding: try decryptBytes(message, from: other), as: UTF8.self)
    }

    func decryptBytes(_ message: CiphertextMessage, from other: DemoParty) throws -> Data {
        if message.messageType == .preKey {
            return try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: message.serialize()), from: other.address, sessionStore: store,
                identityStore: store, preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context)
        }
        return try signalDecrypt(
            message: try SignalMessage(bytes: message.serialize()), from: other.address, sessionStore: store,
            identityStore: store, context: context)
    }
}
