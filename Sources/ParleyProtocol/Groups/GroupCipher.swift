import Foundation

/// Stores the sender key that `message` distributes, for `sender` in the group the message names.
/// - Throws: ``SignalError/invalidMessage(_:)`` for a message in the C library's form, which names no group (use
///   ``processSenderKeyDistributionMessage(_:from:distributionId:store:context:)``).
public func processSenderKeyDistributionMessage(
    _ message: SenderKeyDistributionMessage, from sender: ProtocolAddress, store: SenderKeyStore, context: StoreContext
) throws {
    guard let distributionId = message.distributionId else {
        throw SignalError.invalidMessage("the distribution message names no group (Signal's C library's form)")
    }
    try processSenderKeyDistributionMessage(message, from: sender, distributionId: distributionId, store: store, context: context)
}

/// Stores the sender key that `message` distributes, for `sender` in `distributionId`.
///
/// The C library's form of the message does not carry the distribution id, so the caller names it, as
/// libsignal-protocol-c's sender key name (group id, sender) does; a message that carries one must carry this one.
/// - Throws: ``SignalError/invalidMessage(_:)`` when the message names another group.
public func processSenderKeyDistributionMessage(
    _ message: SenderKeyDistributionMessage, from sender: ProtocolAddress, distributionId: UUID,
    store: SenderKeyStore, context: StoreContext
) throws {
    if let named = message.distributionId, named != distributionId {
        throw SignalError.invalidMessage("the distribution message is for group \(named), not \(distributionId)")
    }
    var record =
        try store.loadSenderKey(from: sender, distributionId: distributionId, context: context)
        ?? SenderKeyRecord(states: [])
    record.add(
        SenderKeyState(
            keyId: message.chainId, chainKey: ChainKey(key: message.chainKeyBytes, index: message.iteration),
            signingKey: message.signatureKey, signingPrivateKey: nil))
    try store.storeSenderKey(from: sender, distributionId: distributionId, record: record, context: context)
}

/// Encrypts `message` for the group `distributionId` with our own sender key: one encryption for all members.
/// `format` chooses the wire form: libsignal's (the default, carrying the distribution id) or the C library's.
/// - Throws: ``SignalError/invalidSenderKeySession(distributionId:message:)`` when `sender` has no own chain there
///   (make one with ``SenderKeyDistributionMessage/init(from:distributionId:store:context:)``).
public func groupEncrypt<Bytes: ContiguousBytes>(
    _ message: Bytes, from sender: ProtocolAddress, distributionId: UUID, format: SenderKeyMessageFormat = .libsignal,
    store: SenderKeyStore, context: StoreContext
) throws -> CiphertextMessage {
    guard var record = try store.loadSenderKey(from: sender, distributionId: distributionId, context: context),
        var state = record.states.first, let signingKey = try state.signingPrivateKey()
    else { throw SignalError.invalidSenderKeySession(distributionId: distributionId, message: "no own sender key for \(sender)") }
    let chainKey = state.chainKey
    let keys = SenderMessageKey(seed: chainKey.messageKeySeed)
    let ciphertext = try MessageCipher.encrypt(message.byteArray, key: keys.cipherKey, iv: keys.iv)
    let result = SenderKeyMessage(
        distributionId: format == .libsignal ? distributionId : nil, chainId: state.keyId, iteration: chainKey.index,
        ciphertext: ciphertext, signingKey: signingKey)
    state.chainKey = chainKey.next
    record.states[0] = state
    try store.storeSenderKey(from: sender, distributionId: distributionId, record: record, context: context)
    return CiphertextMessage(result)
}

/// Decrypts a group message from `sender` in the group the message names; the signature is checked before anything
/// else. On failure nothing stored changes.
/// - Throws: ``SignalError/invalidMessage(_:)`` for a message in the C library's form, which names no group (use
///   ``groupDecrypt(_:from:distributionId:store:context:)``), and the errors of that function.
public func groupDecrypt<Bytes: ContiguousBytes>(
    _ message: Bytes, from sender: ProtocolAddress, store: SenderKeyStore, context: StoreContext
) throws -> Data {
    let parsed = try SenderKeyMessage(bytes: message)
    guard let distributionId = parsed.distributionId else {
        throw SignalError.invalidMessage("the group message names no group (Signal's C library's form)")
    }
    return try groupDecrypt(parsed, from: sender, distributionId: distributionId, store: store, context: context)
}

/// Decrypts a group message from `sender` in `distributionId` (which a message in libsignal's form must name); the
/// signature is checked before anything else. On failure nothing stored changes.
/// - Throws: ``SignalError/invalidSenderKeySession(distributionId:message:)`` without a matching chain, ``SignalError/invalidSignature(_:)``,
///   ``SignalError/duplicatedMessage(_:)``, ``SignalError/invalidMessage(_:)``, and parsing errors.
public func groupDecrypt<Bytes: ContiguousBytes>(
    _ message: Bytes, from sender: ProtocolAddress, distributionId: UUID, store: SenderKeyStore, context: StoreContext
) throws -> Data {
    try groupDecrypt(try SenderKeyMessage(bytes: message), from: sender, distributionId: distributionId, store: store, context: context)
}

private func groupDecrypt(
    _ parsed: SenderKeyMessage, from sender: ProtocolAddress, distributionId: UUID, store: SenderKeyStore, context: StoreContext
) throws -> Data {
    if let named = parsed.distributionId, named != distributionId {
        throw SignalError.invalidSenderKeySession(
            distributionId: distributionId, message: "the group message from \(sender) is for group \(named)")
    }
    guard var record = try store.loadSenderKey(from: sender, distributionId: distributionId, context: context),
        let index = record.stateIndex(keyId: parsed.chainId)
    else { throw SignalError.invalidSenderKeySession(distributionId: distributionId, message: "no sender key for \(sender)") }
    var state = record.states[index]
    guard try parsed.verifySignature(try state.signingKey()) else {
        throw SignalError.invalidSignature("group message signature from \(sender) does not verify")
    }
    let seed: [UInt8]
    let chainKey = state.chainKey
    if chainKey.index > parsed.iteration {
        guard let kept = state.takeMessageKeySeed(iteration: parsed.iteration) else {
            throw SignalError.duplicatedMessage("group message \(parsed.iteration) was already received")
        }
        seed = kept
    } else {
        let (position, skipped) = try chainKey.advance(to: parsed.iteration)
        state.keepMessageKeySeeds(skipped)
        state.chainKey = position.next
        seed = position.messageKeySeed
    }
    let keys = SenderMessageKey(seed: seed)
    let plaintext = try MessageCipher.decrypt(parsed.ciphertextBytes, key: keys.cipherKey, iv: keys.iv)
    record.states[index] = state
    try store.storeSenderKey(from: sender, distributionId: distributionId, record: record, context: context)
    return plaintext
}
