/// One session's SPQR V1 state: the KEM exchange and the chain, behind the two calls the triple ratchet makes —
/// ``send()`` for each outgoing message (the `pq_ratchet` bytes and the key that salts its message keys) and
/// ``receive(_:)`` for each incoming one. Both run on a copy the session commits only when the whole message
/// succeeded, so a refused message changes nothing.
struct SPQRState: Sendable {
    private var exchange: SPQRExchange
    private var chain: SPQRChain
    /// Whether anything was received yet (until then an older version is refused as below the minimum).
    private(set) var hasReceived = false

    /// The state of a new session from PQXDH's SPQR authentication key (bytes 64…96 of its output); the initiator
    /// runs A→B and sends the first encapsulation key.
    init(authKey: [UInt8], isInitiator: Bool) {
        exchange = SPQRExchange(authKey: authKey, sendsKeyFirst: isInitiator)
        chain = SPQRChain(authKey: authKey, direction: isInitiator ? .aliceToBob : .bobToAlice)
    }

    /// The epoch the next outgoing `pq_ratchet` carries.
    var epoch: UInt64 { exchange.epoch }

    /// The next outgoing `pq_ratchet` and its message key.
    mutating func send() throws -> (message: SPQRMessage, key: [UInt8]) {
        let step = try exchange.send()
        if let secret = step.secret { chain.addEpoch(secret: secret.secret) }
        let messageEpoch = exchange.epoch
        let (index, key) = try chain.sendKey(epoch: messageEpoch - 1)
        return (SPQRMessage(epoch: messageEpoch, index: index, kind: step.kind, chunk: step.chunk), key)
    }

    /// The key of an incoming message's `pq_ratchet` (field 5; empty when absent), or `nil` for a newer SPQR
    /// version this one does not know (the message then fails its MAC, as in libsignal).
    ///
    /// - Throws: ``SPQRError`` for a missing field (version 0 is below the minimum, V1), malformed bytes, an epoch
    ///   out of range, a failed MAC or key check, a key not available.
    mutating func receive(_ bytes: [UInt8]) throws -> [UInt8]? {
        guard let version = bytes.first else {
            throw SPQRError.malformedMessage(hasReceived ? "version mismatch: no pq_ratchet" : "minimum version: no pq_ratchet")
        }
        guard version <= SPQRMessage.version else { return nil }
        let message = try SPQRMessage(bytes: bytes)
        if let secret = try exchange.receive(epoch: message.epoch, kind: message.kind, chunk: message.chunk) {
            chain.addEpoch(secret: secret.secret)
        }
        hasReceived = true
        guard message.index > 0 else { return nil }
        return try chain.receiveKey(epoch: message.epoch - 1, index: message.index)
    }
}
