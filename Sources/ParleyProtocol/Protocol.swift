import Foundation

/// Milliseconds since 1970 for `date`.
private func milliseconds(_ date: Date) -> UInt64 { UInt64(max(0, date.timeIntervalSince1970 * 1000)) }

/// Sets up a session with `address` from its prekey bundle (Alice's side of X3DH or PQXDH).
///
/// A bundle with a KEM prekey gives a PQXDH (version 4) session, without one an X3DH (version 3)
/// session. The new session becomes current; an existing one is archived. The bundle's identity is
/// trusted on first use and saved.
///
/// ```swift
/// try processPreKeyBundle(bundle, for: bob, ourAddress: alice, sessionStore: store, identityStore: store, context: NullContext())
/// ```
/// `ourAddress` is LibSignalClient's parameter (this device); Parley accepts it and may omit it, as older
/// LibSignalClient code does.
/// - Throws: ``SignalError/untrustedIdentity(_:)`` when the bundle's identity differs from the trusted one;
///   ``SignalError/invalidSignature(_:)`` for a bad signed-prekey or KEM-prekey signature;
///   ``SignalError/sessionSetupRefused(_:)`` for an X3DH bundle under ``SessionSetupPolicy/requirePQXDH``.
public func processPreKeyBundle(
    _ bundle: PreKeyBundle, for address: ProtocolAddress, ourAddress: ProtocolAddress? = nil, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, now: Date = Date(), context: StoreContext
) throws {
    let state = try SessionBuilder.state(
        from: bundle, for: address, identityStore: identityStore, timestamp: milliseconds(now), context: context)
    var record = try sessionStore.loadSession(for: address, context: context) ?? SessionRecord()
    record.promote(state)
    _ = try identityStore.saveIdentity(bundle.identityKey, for: address, context: context)
    try sessionStore.storeSession(record, for: address, context: context)
}

/// Encrypts `message` for `address` on the current session.
///
/// Until the other side has answered, the result is a pre-key message (``CiphertextMessage/MessageType/preKey``);
/// afterwards a ``CiphertextMessage/MessageType/whisper``.
/// With `localAddress`, when both addresses' names are ServiceIds (an ACI's UUID, or `PNI:` and a UUID) and their
/// device ids fit a byte, a pre-key message's SignalMessage carries them in field 6 under the MAC (libsignal since
/// v0.91), so a receiver can tell the message was meant for it.
/// - Throws: ``SignalError/sessionNotFound(_:)`` without a session (or when an unacknowledged session is over 30 days
///   old at `now`); ``SignalError/untrustedIdentity(_:)`` when the session's identity is no longer trusted.
public func signalEncrypt<Bytes: ContiguousBytes>(
    message: Bytes, for address: ProtocolAddress, localAddress: ProtocolAddress? = nil, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, now: Date = Date(), context: StoreContext
) throws -> CiphertextMessage {
    guard var record = try sessionStore.loadSession(for: address, context: context),
        var state = record.currentState, state.hasSenderChain
    else { throw SignalError.sessionNotFound("no session for \(address)") }
    if let pending = state.pendingPreKey,
        milliseconds(now) > pending.timestamp + SessionBuilder.maximumUnacknowledgedSessionAgeMilliseconds
    {
        throw SignalError.sessionNotFound("the session with \(address) was never acknowledged and has expired")
    }
    let remoteIdentity = try state.remoteIdentityKey()
    guard try identityStore.isTrustedIdentity(remoteIdentity, for: address, direction: .sending, context: context) else {
        throw SignalError.untrustedIdentity("identity of \(address) is not trusted for sending")
    }
    let addresses = localAddress.flatMap { MessageAddresses.encode(sender: $0, recipient: address) }
    let ciphertext = try SessionCipher.encrypt(message.byteArray, state: &state, addresses: addresses)
    record.currentState = state
    _ = try identityStore.saveIdentity(remoteIdentity, for: address, context: context)
    try sessionStore.storeSession(record, for: address, context: context)
    return ciphertext
}

/// Decrypts a ``SignalMessage`` from `address` to this device (`toAddress`, LibSignalClient's label; older code
/// omits it). On failure nothing stored changes. A message carrying field 6 (``SignalMessage/addresses``) must name
/// `address` as its sender and, when `toAddress` is given, it as the recipient.
/// - Throws: ``SignalError/sessionNotFound(_:)``, ``SignalError/duplicatedMessage(_:)``,
///   ``SignalError/invalidMessage(_:)``, ``SignalError/untrustedIdentity(_:)``.
public func signalDecrypt(
    message: SignalMessage, from address: ProtocolAddress, to toAddress: ProtocolAddress? = nil, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, context: StoreContext
) throws -> Data {
    try MessageAddresses.check(message.addresses, sender: address, recipient: toAddress)
    guard var record = try sessionStore.loadSession(for: address, context: context) else {
        throw SignalError.sessionNotFound("no session for \(address)")
    }
    let plaintext = try SessionCipher.decrypt(message, record: &record)
    try commitDecryption(record: record, from: address, sessionStore: sessionStore, identityStore: identityStore, context: context)
    return plaintext
}

/// Decrypts a ``PreKeySignalMessage`` from `address`, setting up the responder's session if needed
/// (Bob's side of X3DH or PQXDH). Once the message decrypts, the KEM prekey is marked used (a store refuses a
/// last-resort key's replayed base key here), then the session is stored and the one-time prekey removed; when
/// decryption or the replay check fails nothing stored changes.
/// - Throws: ``SignalError/invalidKeyIdentifier(_:)`` for an unknown prekey, ``SignalError/untrustedIdentity(_:)``,
///   ``SignalError/sessionSetupRefused(_:)`` for X3DH under ``SessionSetupPolicy/requirePQXDH``, the store's error for a
///   replay, and the errors of ``signalDecrypt(message:from:to:sessionStore:identityStore:context:)``.
public func signalDecryptPreKey(
    message: PreKeySignalMessage, from address: ProtocolAddress, localAddress: ProtocolAddress? = nil, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, preKeyStore: PreKeyStore, signedPreKeyStore: SignedPreKeyStore,
    kyberPreKeyStore: KyberPreKeyStore, context: StoreContext
) throws -> Data {
    try MessageAddresses.check(message.signalMessage.addresses, sender: address, recipient: localAddress)
    var record = try sessionStore.loadSession(for: address, context: context) ?? SessionRecord()
    let consumed = try SessionBuilder.process(
        message, from: address, record: &record, identityStore: identityStore, preKeyStore: preKeyStore,
        signedPreKeyStore: signedPreKeyStore, kyberPreKeyStore: kyberPreKeyStore, context: context)
    let plaintext = try SessionCipher.decrypt(message.signalMessage, record: &record)
    let remoteIdentity = try checkTrust(record: record, from: address, identityStore: identityStore, context: context)
    if let id = consumed.kyberPreKeyId {
        try kyberPreKeyStore.markKyberPreKeyUsed(
            id: id, signedPreKeyId: message.signedPreKeyId, baseKey: message.baseKey, context: context)
    }
    try commit(
        record: record, identity: remoteIdentity, from: address, sessionStore: sessionStore, identityStore: identityStore, context: context)
    if let id = consumed.preKeyId { try preKeyStore.removePreKey(id: id, context: context) }
    return plaintext
}

/// Checks trust in the decrypting session's identity, then saves it and the record.
private func commitDecryption(
    record: SessionRecord, from address: ProtocolAddress, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, context: StoreContext
) throws {
    let remoteIdentity = try checkTrust(record: record, from: address, identityStore: identityStore, context: context)
    try commit(
        record: record, identity: remoteIdentity, from: address, sessionStore: sessionStore, identityStore: identityStore, context: context)
}

/// The record's remote identity, when it is trusted for receiving.
private func checkTrust(
    record: SessionRecord, from address: ProtocolAddress, identityStore: IdentityKeyStore, context: StoreContext
) throws -> IdentityKey {
    let remoteIdentity = try record.remoteIdentityKey()
    guard try identityStore.isTrustedIdentity(remoteIdentity, for: address, direction: .receiving, context: context) else {
        throw SignalError.untrustedIdentity("identity of \(address) is not trusted for receiving")
    }
    return remoteIdentity
}

/// Saves the identity and the record.
private func commit(
    record: SessionRecord, identity: IdentityKey, from address: ProtocolAddress, sessionStore: SessionStore,
    identityStore: IdentityKeyStore, context: StoreContext
) throws {
    _ = try identityStore.saveIdentity(identity, for: address, context: context)
    try sessionStore.storeSession(record, for: address, context: context)
}

/// HKDF-SHA256 (RFC 5869) of `inputKeyMaterial` with `salt` and `info`, `outputLength` bytes — LibSignalClient's
/// top-level `hkdf`.
/// - Throws: ``SignalError/invalidArgument(_:)`` when `outputLength` is negative or over 255 × 32 bytes (RFC 5869's bound).
public func hkdf(
    outputLength: Int, inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes, info: some ContiguousBytes
) throws -> Data {
    guard (0...(255 * 32)).contains(outputLength) else {
        throw SignalError.invalidArgument("HKDF output of \(outputLength) bytes; at most \(255 * 32)")
    }
    if outputLength == 0 { return Data() }
    return Data(
        NativeCrypto.hkdfSHA256(
            inputKeyMaterial: inputKeyMaterial.byteArray, salt: salt.byteArray, info: info.byteArray, count: outputLength))
}
