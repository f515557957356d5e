/// X3DH (version 3) and PQXDH (version 4) session setup, as initiator ("Alice") and responder ("Bob").
///
/// secret input = `0xFF`×32 ‖ DH(IK_A, SPK_B) ‖ DH(EK_A, IK_B) ‖ DH(EK_A, SPK_B) [‖ DH(EK_A, OPK_B)] [‖ KEM secret],
/// then HKDF-SHA256 with no salt: 64 bytes under `"WhisperText"` (v3) or 96 bytes under the PQXDH label (v4),
/// root key ‖ chain key [‖ SPQR authentication key].
enum SessionSetup {
    static let x3dhLabel = "WhisperText"
    static let pqxdhLabel = "WhisperText_X25519_SHA-256_CRYSTALS-KYBER-1024"

    struct DerivedKeys {
        let rootKey: RootKey
        let chainKey: ChainKey
        let pqAuthKey: [UInt8]?
    }

    static func deriveKeys(agreements: [[UInt8]], kemSecret: [UInt8]?) -> DerivedKeys {
        var input = [UInt8](repeating: 0xFF, count: 32)
        for agreement in agreements { input += agreement }
        let derived: [UInt8]
        if let kemSecret {
            derived = KDF.hkdf(inputKeyMaterial: input + kemSecret, info: pqxdhLabel, count: 96)
        } else {
            derived = KDF.hkdf(inputKeyMaterial: input, info: x3dhLabel, count: 64)
        }
        return DerivedKeys(
            rootKey: RootKey(key: Array(derived[0..<32])),
            chainKey: ChainKey(key: Array(derived[32..<64]), index: 0),
            pqAuthKey: kemSecret == nil ? nil : Array(derived[64..<96]))
    }

    /// Alice's side, from a bundle whose signatures the caller has verified.
    static func initiate(
        bundle: PreKeyBundle, ourIdentity: IdentityKeyPair, localRegistrationId: UInt32, timestamp: UInt64
    ) throws -> SessionState {
        let baseKey = PrivateKey.generate()
        let theirSignedPreKey = bundle.signedPreKeyPublic
        var agreements = [
            try ourIdentity.privateKey.agreement(with: theirSignedPreKey),
            try baseKey.agreement(with: bundle.identityKey.publicKey),
            try baseKey.agreement(with: theirSignedPreKey),
        ]
        if let oneTime = bundle.preKeyPublic { agreements.append(try baseKey.agreement(with: oneTime)) }
        let encapsulation = try bundle.kyberPreKeyPublic?.encapsulate()
        let keys = deriveKeys(agreements: agreements, kemSecret: encapsulation?.sharedSecret)

        let sendingRatchetKey = PrivateKey.generate()
        let (rootKey, sendingChain) = try keys.rootKey.createChain(
            theirRatchetKey: theirSignedPreKey, ourRatchetKey: sendingRatchetKey)
        let version = encapsulation == nil ? MessageVersion.x3dh : MessageVersion.pqxdh
        var state = SessionState(
            version: version, localIdentity: ourIdentity.identityKey, remoteIdentity: bundle.identityKey,
            rootKey: rootKey, aliceBaseKey: baseKey.publicKey, pqAuthKey: keys.pqAuthKey)
        state.addReceiverChain(ratchetKey: theirSignedPreKey, chainKey: keys.chainKey)
        state.setSenderChain(ratchetKey: sendingRatchetKey, chainKey: sendingChain)
        state.pendingPreKey = SessionState.PendingPreKey(
            preKeyId: bundle.preKeyId, signedPreKeyId: bundle.signedPreKeyId, baseKey: baseKey.publicKey,
            kyberPreKeyId: bundle.kyberPreKeyId, kyberCiphertext: encapsulation?.ciphertext, timestamp: timestamp)
        state.localRegistrationId = localRegistrationId
        state.remoteRegistrationId = bundle.registrationId
        if let pqAuthKey = keys.pqAuthKey, bundle.spqr { state.setSPQR(SPQRState(authKey: pqAuthKey, isInitiator: true)) }
        return state
    }

    /// Bob's side, from a pre-key message and the prekeys it names.
    static func respond(
        to message: PreKeySignalMessage, ourIdentity: IdentityKeyPair, signedPreKey: SignedPreKeyRecord,
        oneTimePreKey: PreKeyRecord?, kyberPreKey: KyberPreKeyRecord?, localRegistrationId: UInt32
    ) throws -> SessionState {
        let theirBaseKey = message.baseKey
        var agreements = [
            try signedPreKey.keyPair.privateKey.agreement(with: message.senderIdentity.publicKey),
            try ourIdentity.privateKey.agreement(with: theirBaseKey),
            try signedPreKey.keyPair.privateKey.agreement(with: theirBaseKey),
        ]
        if let oneTimePreKey { agreements.append(try oneTimePreKey.keyPair.privateKey.agreement(with: theirBaseKey)) }
        var kemSecret: [UInt8]?
        if let kyberPreKey, let ciphertext = message.kyberCiphertext {
            kemSecret = try kyberPreKey.pair.secretKey.decapsulate(ciphertext)
        }
        let keys = deriveKeys(agreements: agreements, kemSecret: kemSecret)
        var state = SessionState(
            version: message.versionByte, localIdentity: ourIdentity.identityKey, remoteIdentity: message.senderIdentity,
            rootKey: keys.rootKey, aliceBaseKey: theirBaseKey, pqAuthKey: keys.pqAuthKey)
        state.setSenderChain(ratchetKey: signedPreKey.keyPair.privateKey, chainKey: keys.chainKey)
        state.localRegistrationId = localRegistrationId
        state.remoteRegistrationId = message.senderRegistrationId
        if let pqAuthKey = keys.pqAuthKey, kyberPreKey?.spqr == true { state.setSPQR(SPQRState(authKey: pqAuthKey, isInitiator: false)) }
        return state
    }
}
