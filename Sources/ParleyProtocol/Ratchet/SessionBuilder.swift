/// Builds sessions from bundles (initiator) and from pre-key messages (responder), checking signatures,
/// trust and policy first. Nothing here writes to a store; the callers do, once everything succeeded.
enum SessionBuilder {
    /// Unacknowledged sessions older than this no longer send (libsignal's `MAX_UNACKNOWLEDGED_SESSION_AGE`).
    static let maximumUnacknowledgedSessionAgeMilliseconds: UInt64 = 30 * 24 * 60 * 60 * 1000

    /// Verifies a bundle and makes the initiator's session state.
    static func state(
        from bundle: PreKeyBundle, for address: ProtocolAddress, identityStore: IdentityKeyStore,
        timestamp: UInt64, context: StoreContext
    ) throws -> SessionState {
        if bundle.kyberPreKeyPublic == nil, context.sessionSetupPolicy == .requirePQXDH {
            throw SignalError.sessionSetupRefused("bundle for \(address) has no KEM prekey and policy requires PQXDH")
        }
        guard try identityStore.isTrustedIdentity(bundle.identityKey, for: address, direction: .sending, context: context) else {
            throw SignalError.untrustedIdentity("\(address) presents an identity key other than the trusted one")
        }
        let identity = bundle.identityKey.publicKey
        guard try identity.verifySignature(message: bundle.signedPreKeyPublic.serialize(), signature: bundle.signedPreKeySignature) else {
            throw SignalError.invalidSignature("signed prekey signature of \(address) does not verify")
        }
        if let kyberKey = bundle.kyberPreKeyPublic, let signature = bundle.kyberPreKeySignature {
            guard try identity.verifySignature(message: kyberKey.serialize(), signature: signature) else {
                throw SignalError.invalidSignature("KEM prekey signature of \(address) does not verify")
            }
        }
        return try SessionSetup.initiate(
            bundle: bundle, ourIdentity: try identityStore.identityKeyPair(context: context),
            localRegistrationId: try identityStore.localRegistrationId(context: context), timestamp: timestamp)
    }

    /// The prekeys a responder's new session consumed.
    struct ConsumedPreKeys {
        let preKeyId: UInt32?
        let kyberPreKeyId: UInt32?
    }

    /// Sets up the responder's session for `message` in `record`, unless a session with its base key exists.
    static func process(
        _ message: PreKeySignalMessage, from address: ProtocolAddress, record: inout SessionRecord,
        identityStore: IdentityKeyStore, preKeyStore: PreKeyStore, signedPreKeyStore: SignedPreKeyStore,
        kyberPreKeyStore: KyberPreKeyStore, context: StoreContext
    ) throws -> ConsumedPreKeys {
        if message.versionByte == MessageVersion.x3dh, context.sessionSetupPolicy == .requirePQXDH {
            throw SignalError.sessionSetupRefused("version 3 (X3DH) pre-key message from \(address); policy requires PQXDH")
        }
        guard try identityStore.isTrustedIdentity(message.senderIdentity, for: address, direction: .receiving, context: context) else {
            throw SignalError.untrustedIdentity("\(address) presents an identity key other than the trusted one")
        }
        let baseKey = message.baseKey.serializedBytes
        let states = [record.currentState].compactMap { $0 } + record.previousStates
        if states.contains(where: { $0.version == message.versionByte && $0.aliceBaseKey == baseKey }) {
            return ConsumedPreKeys(preKeyId: nil, kyberPreKeyId: nil)
        }
        let signedPreKey = try signedPreKeyStore.loadSignedPreKey(id: message.signedPreKeyId, context: context)
        let kyberPreKey = try message.kyberPreKeyId.map { try kyberPreKeyStore.loadKyberPreKey(id: $0, context: context) }
        let oneTimePreKey = try message.oneTimePreKeyId.map { try preKeyStore.loadPreKey(id: $0, context: context) }
        let state = try SessionSetup.respond(
            to: message, ourIdentity: try identityStore.identityKeyPair(context: context), signedPreKey: signedPreKey,
            oneTimePreKey: oneTimePreKey, kyberPreKey: kyberPreKey,
            localRegistrationId: try identityStore.localRegistrationId(context: context))
        record.promote(state)
        return ConsumedPreKeys(preKeyId: message.oneTimePreKeyId, kyberPreKeyId: message.kyberPreKeyId)
    }
}
