/// One session's SPQR V1 state: the KEM exchange and the chain, behind the two calls the triple ratchet makes —
/// ``send()`` for each outgoing message (the `pq_ratchet` bytes and the key that salts its message keys) and
/// ``receive(_:)`` for each incoming one. Both run on a copy the session commits only when the whole message
/// succeeded, so a refused message changes nothing.
struct SPQRState: Sendable {
    var exchange: SPQRExchange
    var chain: SPQRChain
    /// Whether anything was received yet (until then an older version is refused as below the minimum).
    var hasReceived = false

    /// The state of a new session from PQXDH's SPQR authentication key (bytes 64…96 of its output); the initiator
    /// runs A→B and sends the first encapsulation key.
    /// `maximumJump` is ``SPQRChain/maximumJump`` except in a session with oneself (libsignal: u32::MAX).
    init(authKey: [UInt8], isInitiator: Bool, maximumJump: UInt32 = SPQRChain.maximumJump) {
        exchange = SPQRExchange(authKey: authKey, sendsKeyFirst: isInitiator)
        chain = SPQRChain(authKey: authKey, direction: isInitiator ? .aliceToBob : .bobToAlice, maximumJump: maximumJump)
    }

    /// The epoch the next outgoing `pq_ratchet` carries.
    var epoch: UInt64 { exchange.epoch }

    /// The next outgoing `pq_ratchet` and its message key.
    mutating func send() throws -> (message: SPQRMessage, key: [UInt8]) {
        var exchange = exchange
        var chain = chain
        let step = try exchange.send()
        if let secret = step.secret { try chain.addEpoch(secret.epoch, secret: secret.secret) }
        let messageEpoch = exchange.epoch
        let (index, key) = try chain.sendKey(epoch: messageEpoch - 1)
        (self.exchange, self.chain) = (exchange, chain)
        return (SPQRMessage(epoch: messageEpoch, index: index, kind: step.kind, chunk: step.chunk), key)
    }

    /// The key of an incoming message's `pq_ratchet` (field 5; empty when absent), or `nil` for a newer SPQR
    /// version this one does not know (the message then fails its MAC, as in libsignal).
    ///
    /// All or nothing: a refused message leaves the state as it was.
    ///
    /// - Throws: ``SPQRError`` for a missing field (version 0 is below the minimum, V1), malformed bytes, an epoch
    ///   out of range, a failed MAC or key check, a key not available.
    mutating func receive(_ bytes: [UInt8]) throws -> [UInt8]? {
        guard let version = bytes.first, version != 0 else {
            throw SPQRError.malformedMessage(hasReceived ? "version mismatch: no SPQR V1 message" : "minimum version: no SPQR V1 message")
        }
        guard version <= SPQRMessage.version else { return nil }
        let message = try SPQRMessage(bytes: bytes)
        var exchange = exchange
        var chain = chain
        if let secret = try exchange.receive(epoch: message.epoch, kind: message.kind, chunk: message.chunk) {
            try chain.addEpoch(secret.epoch, secret: secret.secret)
        }
        // Only epoch 0's link has no key at index 0 (a message sent before any key); elsewhere index 0 was never sent.
        var key: [UInt8]?
        if !(message.epoch == 1 && message.index == 0) { key = try chain.receiveKey(epoch: message.epoch - 1, index: message.index) }
        (self.exchange, self.chain, hasReceived) = (exchange, chain, true)
        return key
    }
}
