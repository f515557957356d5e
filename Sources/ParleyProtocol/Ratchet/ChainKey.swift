/// A symmetric-ratchet chain key and its position in the chain (Double Ratchet and Sender Keys alike).
struct ChainKey: Sendable {
    let key: [UInt8]
    let index: UInt32

    /// The seed of this position's message key: `HMAC-SHA256(chain key, 0x01)`.
    var messageKeySeed: [UInt8] { KDF.hmacSHA256(key: key, [0x01]) }

    /// The next position: `HMAC-SHA256(chain key, 0x02)`.
    var next: ChainKey { ChainKey(key: KDF.hmacSHA256(key: key, [0x02]), index: index &+ 1) }

    /// Walks forward to `counter` (≥ `index`), returning that position and the seeds of the positions
    /// skipped on the way — at most the last ``ProtocolLimits/maximumMessageKeys`` of them.
    /// - Throws: ``SignalError/invalidMessage(_:)`` when `counter` is over ``ProtocolLimits/maximumForwardJumps`` ahead.
    func advance(to counter: UInt32) throws -> (position: ChainKey, skipped: [(index: UInt32, seed: [UInt8])]) {
        guard counter >= index else { throw SignalError.duplicatedMessage("message \(counter) is behind the chain") }
        guard counter - index <= ProtocolLimits.maximumForwardJumps else {
            throw SignalError.invalidMessage("message \(counter) is over \(ProtocolLimits.maximumForwardJumps) ahead of the chain")
        }
        let kept = UInt32(ProtocolLimits.maximumMessageKeys)
        let firstKept = counter > kept ? counter - kept : 0
        var current = self
        var skipped: [(index: UInt32, seed: [UInt8])] = []
        while current.index < counter {
            if current.index >= firstKept { skipped.append((current.index, current.messageKeySeed)) }
            current = current.next
        }
        return (current, skipped)
    }
}
