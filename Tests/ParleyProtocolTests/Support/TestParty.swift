import Foundation

@testable import ParleyProtocol

/// One device with in-memory stores, and the moves of a conversation.
final class TestParty: Sendable {
    let name: String
    let address: ProtocolAddress
    let store: InMemorySignalProtocolStore
    let context: NullContext

    init(_ name: String, deviceId: UInt32 = 1, policy: SessionSetupPolicy = .allowX3DH) {
        self.name = name
        self.address = try! ProtocolAddress(name: name, deviceId: deviceId)
        self.store = InMemorySignalProtocolStore()
        self.context = NullContext(sessionSetupPolicy: policy)
    }

    var identity: IdentityKeyPair { try! store.identityKeyPair(context: context) }

    /// Makes and stores fresh prekeys, and returns the bundle a server would hand out.
    func bundle(
        preKeyId: UInt32? = 100, signedPreKeyId: UInt32 = 1, kyberPreKeyId: UInt32 = 1000,
        kem: KEMKeyType? = .kyber1024, spqr: Bool = true
    ) throws -> PreKeyBundle {
        let signed = SignedPreKeyRecord.generate(id: signedPreKeyId, timestamp: 1, signedBy: identity.privateKey)
        try store.storeSignedPreKey(signed, id: signedPreKeyId, context: context)
        var oneTime: (id: UInt32, key: PublicKey)?
        if let preKeyId {
            let record = PreKeyRecord.generate(id: preKeyId)
            try store.storePreKey(record, id: preKeyId, context: context)
            oneTime = (preKeyId, try record.publicKey())
        }
        var kyber: (id: UInt32, key: KEMPublicKey, signature: Data)?
        if let kem {
            let record = KyberPreKeyRecord.generate(type: kem, id: kyberPreKeyId, timestamp: 1, signedBy: identity.privateKey, spqr: spqr)
            try store.storeKyberPreKey(record, id: kyberPreKeyId, context: context)
            kyber = (kyberPreKeyId, try record.publicKey(), record.signature)
        }
        var bundle = PreKeyBundle(
            registrationId: try store.localRegistrationId(context: context), deviceId: address.deviceId,
            oneTimePreKey: oneTime, signedPreKeyId: signedPreKeyId, signedPreKey: try signed.publicKey(),
            signedPreKeySignature: signed.signature, identity: identity.identityKey, kyberPreKey: kyber)
        bundle.spqr = spqr
        return bundle
    }

    func process(_ bundle: PreKeyBundle, from other: TestParty) throws {
        try processPreKeyBundle(bundle, for: other.address, sessionStore: store, identityStore: store, context: context)
    }

    func encrypt(_ text: String, to other: TestParty) throws -> CiphertextMessage {
        try encrypt(Array(text.utf8), to: other)
    }

    func encrypt(_ bytes: [UInt8], to other: TestParty) throws -> CiphertextMessage {
        try signalEncrypt(message: bytes, for: other.address, sessionStore: store, identityStore: store, context: context)
    }

    func decrypt(_ message: CiphertextMessage, from other: TestParty) throws -> [UInt8] {
        try decrypt(bytes: message.serialize(), type: message.messageType, from: other)
    }

    func decrypt(bytes: some ContiguousBytes, type: CiphertextMessage.MessageType, from other: TestParty) throws -> [UInt8] {
        switch type {
        case .preKey:
            return Array(
                try signalDecryptPreKey(
                    message: try PreKeySignalMessage(bytes: bytes), from: other.address, sessionStore: store,
                    identityStore: store, preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context))
        default:
            return Array(
                try signalDecrypt(
                    message: try SignalMessage(bytes: bytes), from: other.address, sessionStore: store, identityStore: store,
                    context: context))
        }
    }

    func decryptText(_ message: CiphertextMessage, from other: TestParty) throws -> String {
        String(decoding: try decrypt(message, from: other), as: UTF8.self)
    }

    func session(with other: TestParty) throws -> SessionRecord? {
        try store.loadSession(for: other.address, context: context)
    }

    /// `self` sets up a session from `other`'s bundle; one message each way confirms it.
    func establish(with other: TestParty, kem: KEMKeyType? = .kyber1024, preKeyId: UInt32? = 100) throws {
        try process(try other.bundle(preKeyId: preKeyId, kem: kem), from: other)
        _ = try other.decrypt(try encrypt("hello", to: other), from: self)
        _ = try decrypt(try other.encrypt("hi", to: self), from: other)
    }
}

/// Loads a JSON known-answer file from the test bundle's Vectors folder.
func loadVectors<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
        throw CocoaError(.fileNoSuchFile)
    }
    return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes in lowercase hexadecimal.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
