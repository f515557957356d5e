import ParleyProtocol

// Where seed 002's code does not match LibSignalClient itself, these adapters let it compile unchanged. Each is a slip
// of the seed, not a difference of ParleyProtocol: the same code fails against Signal's own Swift package.

/// Slip 1 (the one the seed's issue names): `initialize()` passes `identityKeyPair.publicKey` (a `PublicKey`) where its
/// own `SignalKeyServerClient.uploadKeys` declares an `IdentityKey`.
extension SignalKeyServerClient {
    func uploadKeys(
        deviceId: UInt32, registrationId: UInt32, identityKey: PublicKey, signedPreKey: SignedPreKeyRecord,
        preKeys: [PreKeyRecord], kyberPreKeys: [KyberPreKeyRecord]
    ) async throws {
        try await uploadKeys(
            deviceId: deviceId, registrationId: registrationId, identityKey: IdentityKey(publicKey: identityKey),
            signedPreKey: signedPreKey, preKeys: preKeys, kyberPreKeys: kyberPreKeys)
    }
}

// Slip 2: the key-server client reads `record.publicKey` as a property; LibSignalClient's prekey records (and so
// ParleyProtocol's) offer the throwing method `publicKey()`.
extension SignedPreKeyRecord {
    var publicKey: PublicKey { try! publicKey() }
}

extension PreKeyRecord {
    var publicKey: PublicKey { try! publicKey() }
}

extension KyberPreKeyRecord {
    var publicKey: KEMPublicKey { try! publicKey() }
}
