import Foundation
import ParleyProtocol

/// A device with in-memory stores, for the benchmark workloads (the same shapes as ../shared/interop/bench.c).
struct ProtocolParty {
    let address: ProtocolAddress
    let store = InMemorySignalProtocolStore()
    let context = NullContext()
    let signedPreKey: SignedPreKeyRecord

    var identity: PrivateKey { try! store.identityKeyPair(context: context).privateKey }

    init(_ name: String) {
        address = try! ProtocolAddress(name: name, deviceId: 1)
        signedPreKey = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: try! store.identityKeyPair(context: context).privateKey)
        try! store.storeSignedPreKey(signedPreKey, id: 1, context: context)
    }

    /// A fresh bundle; the one-time prekey and KEM prekey are made and stored when asked for.
    func bundle(preKeyId: UInt32?, kyber: KyberPreKeyRecord? = nil) -> PreKeyBundle {
        var oneTime: (id: UInt32, key: PublicKey)?
        if let preKeyId {
            let record = PreKeyRecord.generate(id: preKeyId)
            try! store.storePreKey(record, id: preKeyId, context: context)
            oneTime = (preKeyId, try! record.publicKey())
        }
        if let kyber { try! store.storeKyberPreKey(kyber, id: kyber.id, context: context) }
        var bundle = PreKeyBundle(
            registrationId: try! store.localRegistrationId(context: context), deviceId: 1, oneTimePreKey: oneTime,
            signedPreKeyId: 1, signedPreKey: try! signedPreKey.publicKey(), signedPreKeySignature: signedPreKey.signature,
            identity: try! store.identityKeyPair(context: context).identityKey,
            kyberPreKey: kyber.map { ($0.id, try! $0.publicKey(), $0.signature) })
        bundle.spqr = kyber?.spqr ?? false  // SPQR exactly when the KEM prekey is for it
        return bundle
    }

    /// Encrypts on `self`, decrypts on `receiver`: one message across the wire.
    func send(_ plaintext: [UInt8], to receiver: ProtocolParty) {
        let message = try! signalEncrypt(
            message: plaintext, for: receiver.address, sessionStore: store, identityStore: store, context: context)
        let bytes = message.serialize()
        if message.messageType == .preKey {
            _ = try! signalDecryptPreKey(
                message: try! PreKeySignalMessage(bytes: bytes), from: address, sessionStore: receiver.store,
                identityStore: receiver.store, preKeyStore: receiver.store, signedPreKeyStore: receiver.store,
                kyberPreKeyStore: receiver.store, context: receiver.context)
        } else {
            _ = try! signalDecrypt(
                message: try! SignalMessage(bytes: bytes), from: address, sessionStore: receiver.store,
                identityStore: receiver.store, context: receiver.context)
        }
    }

    /// Sets up a session with `other` (X3DH, or PQXDH with `kyber`) and confirms it with one message each way.
    func establish(with other: ProtocolParty, preKeyId: UInt32? = 1, kyber: KyberPreKeyRecord? = nil) {
        try! processPreKeyBundle(
            other.bundle(preKeyId: preKeyId, kyber: kyber), for: other.address, sessionStore: store, identityStore: store, context: context)
        send(ProtocolParty.message, to: other)
        other.send(ProtocolParty.message, to: self)
    }

    /// The 100-byte message of every workload.
    static let message = [UInt8](repeating: 0x61, count: 100)
}
