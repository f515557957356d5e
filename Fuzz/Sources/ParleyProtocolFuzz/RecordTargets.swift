import FuzzHarness
import ParleyProtocol

/// Stored records and serialized keys, as a damaged or hostile database hands them back.
enum RecordTargets {
    /// A session record that parses is one the protocol can encrypt with, or refuse with an error.
    static let sessionRecord = FuzzTarget(
        run: { input in
            guard let record = try? SessionRecord(bytes: input) else { return }
            invariant((try? SessionRecord(bytes: record.serialize())) != nil, "a parsed session record re-parses")
            let f = Fixtures.shared
            let store = InMemorySignalProtocolStore()
            guard (try? store.storeSession(record, for: f.bobAddress, context: f.context)) != nil else { return }
            _ = try? signalEncrypt(message: [1, 2, 3], for: f.bobAddress, sessionStore: store, identityStore: store, context: f.context)
            if let whisper = try? SignalMessage(bytes: f.whisperMessages[0]) {
                _ = try? signalDecrypt(message: whisper, from: f.bobAddress, sessionStore: store, identityStore: store, context: f.context)
            }
        }, seeds: { Fixtures.shared.sessionRecords })

    static let preKeyRecords = FuzzTarget(
        run: { input in
            if let record = try? PreKeyRecord(bytes: input) {
                invariant((try? PreKeyRecord(bytes: record.serialize())) != nil, "a parsed prekey record re-parses")
            }
            if let record = try? SignedPreKeyRecord(bytes: input) {
                invariant((try? SignedPreKeyRecord(bytes: record.serialize())) != nil, "a parsed signed prekey record re-parses")
            }
            if let record = try? KyberPreKeyRecord(bytes: input) {
                invariant((try? KyberPreKeyRecord(bytes: record.serialize())) != nil, "a parsed KEM prekey record re-parses")
            }
            if let record = try? SenderKeyRecord(bytes: input) {
                invariant((try? SenderKeyRecord(bytes: record.serialize())) != nil, "a parsed sender key record re-parses")
            }
        }, seeds: { Fixtures.shared.bundleRecords })

    static let keys = FuzzTarget(
        run: { input in
            if let key = try? PublicKey(input) {
                invariant(Array(key.serialize()) == input, "a Curve25519 public key serializes to the bytes it was parsed from")
                _ = try? key.verifySignature(message: [1], signature: [UInt8](repeating: 0, count: 64))
            }
            if let key = try? PrivateKey(input) { _ = key.publicKey }
            if let key = try? KEMPublicKey(input) {
                invariant(Array(key.serialize()) == input, "a KEM public key serializes to the bytes it was parsed from")
            }
            if let key = try? KEMSecretKey(input) { _ = key.publicKey }
            if let pair = try? IdentityKeyPair(bytes: input) {
                invariant((try? IdentityKeyPair(bytes: pair.serialize())) != nil, "a parsed identity key pair re-parses")
            }
        },
        seeds: {
            let f = Fixtures.shared
            let identity = try! f.alice.identityKeyPair(context: f.context)
            return [
                identity.publicKey.serialize(), identity.privateKey.serialize(), identity.serialize(),
                KEMKeyPair.generate().publicKey.serialize(), KEMKeyPair.generate().secretKey.serialize(),
            ].map { Array($0) }
        })
}
