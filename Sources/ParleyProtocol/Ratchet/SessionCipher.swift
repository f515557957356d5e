import Foundation

/// Double Ratchet encryption and decryption over session state.
///
/// Every function takes its state `inout` on a copy the caller owns; the caller
/// stores the result only when the function returns, so a failure changes nothing.
enum SessionCipher {
    /// Encrypts with the current sending chain; a session with a pending pre-key wraps the message in a ``PreKeySignalMessage``.
    /// `addresses` (``MessageAddresses``) goes into the SignalMessage of a pre-key message only, as libsignal does.
    static func encrypt(_ plaintext: [UInt8], state: inout SessionState, addresses: [UInt8]? = nil) throws -> CiphertextMessage {
        let chainKey = state.senderChainKey
        // The triple ratchet: SPQR's key for this message salts its message keys, and its pq_ratchet travels along.
        var pqRatchet: [UInt8] = []
        var salt: [UInt8] = []
        if var spqr = try state.spqr() {
            let (message, key) = try Self.postQuantum { try spqr.send() }
            pqRatchet = message.serialize()
            salt = key
            state.setSPQR(spqr)
        }
        let keys = MessageKeys(seed: chainKey.messageKeySeed, salt: salt)
        let ciphertext = try MessageCipher.encrypt(plaintext, key: keys.cipherKey, iv: keys.iv)
        let message = SignalMessage(
            version: state.version, macKey: keys.macKey, senderRatchetKey: try state.senderRatchetKey(),
            counter: chainKey.index, previousCounter: state.previousCounter, ciphertext: ciphertext,
            senderIdentityKey: state.localIdentityBytes, receiverIdentityKey: state.remoteIdentityBytes, pqRatchet: pqRatchet,
            addresses: state.pendingPreKey == nil ? [] : addresses ?? [])
        state.senderChainKey = chainKey.next
        guard let pending = state.pendingPreKey else { return CiphertextMessage(message) }
        return CiphertextMessage(
            PreKeySignalMessage(
                version: state.version, registrationId: state.localRegistrationId, preKeyId: pending.preKeyId,
                signedPreKeyId: pending.signedPreKeyId, kyberPreKeyId: pending.kyberPreKeyId,
                kyberCiphertext: pending.kyberCiphertext, baseKey: pending.baseKey, identityKey: try state.localIdentityKey(),
                message: message))
    }

    /// Decrypts with the current state, else with an archived one (which then becomes current).
    ///
    /// - Throws: ``SignalError/sessionNotFound(_:)`` for an empty record; ``SignalError/duplicatedMessage(_:)``;
    ///   otherwise the current state's error (usually ``SignalError/invalidMessage(_:)``).
    static func decrypt(_ message: SignalMessage, record: inout SessionRecord) throws -> Data {
        guard record.currentState != nil || !record.previousStates.isEmpty else {
            throw SignalError.sessionNotFound("no session state")
        }
        var currentError: Error?
        if var state = record.currentState {
            do {
                let plaintext = try decrypt(message, state: &state)
                record.currentState = state
                return plaintext
            } catch let error as SignalError {
                if case .duplicatedMessage = error { throw error }
                currentError = error
            }
        }
        for (index, archived) in record.previousStates.enumerated() {
            var state = archived
            do {
                let plaintext = try decrypt(message, state: &state)
                if record.currentState?.usesSPQR == true, !state.usesSPQR {
                    // A session made before SPQR still decrypts but is not used for sending once an SPQR one exists.
                    record.previousStates[index] = state
                } else {
                    record.promoteArchivedState(at: index, updated: state)
                }
                return plaintext
            } catch let error as SignalError {
                if case .duplicatedMessage = error { throw error }
            }
        }
        throw currentError ?? SignalError.invalidMessage("no archived session decrypts the message")
    }

    /// Decrypts with one state: finds or creates the receiving chain, takes the message key, checks the MAC, decrypts.
    static func decrypt(_ message: SignalMessage, state: inout SessionState) throws -> Data {
        guard message.versionByte == state.version else {
            throw SignalError.invalidMessage("message version \(message.messageVersion) on a version \(state.version) session")
        }
        guard state.hasSenderChain else { throw SignalError.invalidMessage("session has no sending chain") }
        let theirRatchetKey = message.senderRatchetKey
        let chainKey = try receiverChainKey(for: theirRatchetKey, state: &state)
        let seed = try messageKeySeed(for: theirRatchetKey, chainKey: chainKey, counter: message.counter, state: &state)
        // SPQR after the Double Ratchet's key lookup (a used counter is a duplicate before SPQR is asked); its state
        // is committed with the rest, only when the MAC and the decryption succeed. A pre-SPQR session ignores
        // field 5 (a message salted by SPQR then fails its MAC).
        var salt: [UInt8] = []
        if var spqr = try state.spqr() {
            salt = try Self.postQuantum { try spqr.receive(message.pqRatchet) } ?? []
            state.setSPQR(spqr)
        }
        let keys = MessageKeys(seed: seed, salt: salt)
        guard message.verifyMac(sender: state.remoteIdentityBytes, receiver: state.localIdentityBytes, macKey: keys.macKey) else {
            throw SignalError.invalidMessage("MAC does not match")
        }
        let plaintext = try MessageCipher.decrypt(message.ciphertext, key: keys.cipherKey, iv: keys.iv)
        state.pendingPreKey = nil
        return plaintext
    }

    /// Runs an SPQR step, reporting its failures as libsignal does.
    private static func postQuantum<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SPQRError {
            throw SignalError.invalidMessage("post-quantum ratchet error: \(error)")
        }
    }

    /// The receiving chain for `theirRatchetKey`; a new key means a DH ratchet step (and a new sending chain).
    private static func receiverChainKey(for theirRatchetKey: PublicKey, state: inout SessionState) throws -> ChainKey {
        if let existing = state.receiverChainKey(for: theirRatchetKey) { return existing }
        let (rootKey, receivingChain) = try state.rootKey.createChain(
            theirRatchetKey: theirRatchetKey, ourRatchetKey: try state.senderRatchetPrivateKey())
        let ourNewRatchetKey = PrivateKey.generate()
        let (nextRootKey, sendingChain) = try rootKey.createChain(
            theirRatchetKey: theirRatchetKey, ourRatchetKey: ourNewRatchetKey)
        state.rootKey = nextRootKey
        state.addReceiverChain(ratchetKey: theirRatchetKey, chainKey: receivingChain)
        state.previousCounter = max(state.senderChainKey.index, 1) - 1
        state.setSenderChain(ratchetKey: ourNewRatchetKey, chainKey: sendingChain)
        return receivingChain
    }

    /// The message-key seed for `counter`: a kept one for a late message, or the chain advanced (keeping the skipped seeds).
    private static func messageKeySeed(
        for theirRatchetKey: PublicKey, chainKey: ChainKey, counter: UInt32, state: inout SessionState
    ) throws -> [UInt8] {
        if chainKey.index > counter {
            if let seed = state.takeMessageKeySeed(for: theirRatchetKey, counter: counter) { return seed }
            throw SignalError.duplicatedMessage("message \(counter) of this chain was already received")
        }
        let (position, skipped) = try chainKey.advance(to: counter)
        state.keepMessageKeySeeds(skipped, for: theirRatchetKey)
        state.setReceiverChainKey(position.next, for: theirRatchetKey)
        return position.messageKeySeed
    }
}
