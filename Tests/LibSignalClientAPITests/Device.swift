import Foundation
import ParleyProtocol

/// One device set up the way LibSignalClient's documentation does it: an in-memory store, an ACI address, and prekeys
/// made with libsignal's record initializers.
final class Device {
    let aci: Aci
    let store: InMemorySignalProtocolStore
    let address: ProtocolAddress
    let context = NullContext()

    init(store: InMemorySignalProtocolStore = InMemorySignalProtocolStore(), aci: Aci = Aci(fromUUID: UUID()), deviceId: UInt32 = 1) {
        self.store = store
        self.aci = aci
        self.address = ProtocolAddress(aci, deviceId: deviceId)
    }

    /// Another device of the same account: the account's identity key, its own registration id and store.
    func linkedDevice(_ deviceId: UInt32) -> Device {
        Device(
            store: InMemorySignalProtocolStore(identity: identity, registrationId: UInt32.random(in: 1...16380)),
            aci: aci, deviceId: deviceId)
    }

    var identity: IdentityKeyPair { try! store.identityKeyPair(context: context) }

    /// Makes, stores and returns a PQXDH bundle (KEM prekey `kyberId`; a one-time prekey unless `oneTime` is false).
    func bundle(oneTime: Bool = true, kyberId: UInt32 = 20) throws -> PreKeyBundle {
        let identity = try store.identityKeyPair(context: context)
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let signedPrivate = PrivateKey.generate()
        let signed = try SignedPreKeyRecord(
            id: 7, timestamp: now, privateKey: signedPrivate,
            signature: identity.privateKey.generateSignature(message: signedPrivate.publicKey.serialize()))
        try store.storeSignedPreKey(signed, id: 7, context: context)
        let kemPair = KEMKeyPair.generate()
        let kyber = try KyberPreKeyRecord(
            id: kyberId, timestamp: now, keyPair: kemPair,
            signature: identity.privateKey.generateSignature(message: kemPair.publicKey.serialize()))
        try store.storeKyberPreKey(kyber, id: kyberId, context: context)
        let registrationId = try store.localRegistrationId(context: context)
        guard oneTime else {
            return try PreKeyBundle(
                registrationId: registrationId, deviceId: address.deviceId, signedPrekeyId: 7,
                signedPrekey: try signed.publicKey(), signedPrekeySignature: signed.signature, identity: identity.identityKey,
                kyberPrekeyId: kyberId, kyberPrekey: try kyber.publicKey(), kyberPrekeySignature: kyber.signature)
        }
        let preKey = try PreKeyRecord(id: 3, privateKey: PrivateKey.generate())
        try store.storePreKey(preKey, id: 3, context: context)
        return try PreKeyBundle(
            registrationId: registrationId, deviceId: address.deviceId, prekeyId: 3, prekey: try preKey.publicKey(),
            signedPrekeyId: 7, signedPrekey: try signed.publicKey(), signedPrekeySignature: signed.signature,
            identity: identity.identityKey, kyberPrekeyId: kyberId, kyberPrekey: try kyber.publicKey(),
            kyberPrekeySignature: kyber.signature)
    }

    /// Sets up a session towards `other` from its bundle.
    func startSession(with other: Device, bundle: PreKeyBundle) throws {
        try processPreKeyBundle(
            bundle, for: other.address, ourAddress: address, sessionStore: store, identityStore: store, context: context)
    }

    func encrypt(_ text: String, to other: Device) throws -> CiphertextMessage {
        try signalEncrypt(
            message: Data(text.utf8), for: other.address, localAddress: address, sessionStore: store, identityStore: store,
            context: context)
    }

    /// Decrypts a whisper or pre-key message from `other`, as LibSignalClient's apps switch on the type.
    func decrypt(_ message: CiphertextMessage, from other: Device) throws -> String {
        try decrypt(message.serialize(), type: message.messageType, from: other)
    }

    func decrypt(_ bytes: Data, type: CiphertextMessage.MessageType, from other: Device) throws -> String {
        let plaintext: Data
        switch type {
        case .preKey:
            plaintext = try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: bytes), from: other.address, localAddress: address,
                sessionStore: store, identityStore: store, preKeyStore: store, signedPreKeyStore: store,
                kyberPreKeyStore: store, context: context)
        case .whisper:
            plaintext = try signalDecrypt(
                message: try SignalMessage(bytes: bytes), from: other.address, to: address, sessionStore: store,
                identityStore: store, context: context)
        default:
            throw SignalError.invalidMessage("not a 1:1 message")
        }
        return String(decoding: plaintext, as: UTF8.self)
    }
}
