/// The symmetric half of SPQR: per epoch, one chain per direction whose message keys salt the Double Ratchet's
/// "WhisperMessageKeys" derivation. Epoch 0's chains come from the session's authentication key; each completed
/// KEM exchange adds an epoch. Keys of messages that have not arrived yet are kept (at most
/// ``maximumKeptKeys``), and a jump of more than ``maximumJump`` is refused.
struct SPQRChain: Sendable, Equatable {
    /// Which way a chain runs.
    enum Direction: Sendable, Equatable {
        /// From the session's initiator (Alice) to its responder.
        case aliceToBob
        /// From the responder to the initiator.
        case bobToAlice
    }

    /// Keys kept for messages that have not arrived (libsignal: max_ooo_keys).
    static let maximumKeptKeys = 2_000
    /// The largest step forward a received index may take (libsignal: max_jump).
    static let maximumJump: UInt32 = 25_000
    /// Epochs whose receiving chains are kept for late messages, besides the newest.
    static let keptEpochs = 1

    /// One direction's chain in one epoch.
    struct Chain: Sendable, Equatable {
        var next: [UInt8]
        var counter: UInt32 = 0
        /// Keys skipped over, by index, oldest first.
        var kept: [(index: UInt32, key: [UInt8])] = []

        static func == (lhs: Chain, rhs: Chain) -> Bool {
            lhs.next == rhs.next && lhs.counter == rhs.counter && lhs.kept.map(\.index) == rhs.kept.map(\.index)
                && lhs.kept.map(\.key) == rhs.kept.map(\.key)
        }

        /// The key of the next index.
        mutating func advance() -> (index: UInt32, key: [UInt8]) {
            counter += 1
            let okm = SPQRKDF.hkdf(next, info: SPQRKDF.bigEndian(counter) + Array("Signal PQ Ratchet V1 Chain Next".utf8), count: 64)
            next = Array(okm[0..<32])
            return (counter, Array(okm[32..<64]))
        }
    }

    let direction: Direction
    private(set) var epoch: UInt64 = 0
    private var nextRoot: [UInt8]
    private(set) var sending: Chain
    /// Receiving chains by epoch (the newest and up to ``keptEpochs`` before it).
    private(set) var receiving: [UInt64: Chain]

    /// The chains of a new session from `authKey`, for the side whose messages run in `direction`.
    init(authKey: [UInt8], direction: Direction) {
        self.direction = direction
        let okm = SPQRKDF.hkdf(authKey, info: Array("Signal PQ Ratchet V1 Chain  Start".utf8), count: 96)
        nextRoot = Array(okm[0..<32])
        let (send, receive) = Self.split(okm, direction)
        sending = Chain(next: send)
        receiving = [0: Chain(next: receive)]
    }

    private static func split(_ okm: [UInt8], _ direction: Direction) -> (send: [UInt8], receive: [UInt8]) {
        let aliceToBob = Array(okm[32..<64]), bobToAlice = Array(okm[64..<96])
        return direction == .aliceToBob ? (aliceToBob, bobToAlice) : (bobToAlice, aliceToBob)
    }

    /// Starts the next epoch from its KEM exchange's `secret`.
    mutating func addEpoch(secret: [UInt8]) {
        let okm = SPQRKDF.hkdf(secret, salt: nextRoot, info: Array("Signal PQ Ratchet V1 Chain Add Epoch".utf8), count: 96)
        nextRoot = Array(okm[0..<32])
        let (send, receive) = Self.split(okm, direction)
        epoch += 1
        sending = Chain(next: send)
        receiving[epoch] = Chain(next: receive)
        for old in receiving.keys where old + UInt64(Self.keptEpochs) < epoch { receiving[old] = nil }
    }

    /// The key for the next message sent, with its epoch and index.
    mutating func sendKey() -> (epoch: UInt64, index: UInt32, key: [UInt8]) {
        let (index, key) = sending.advance()
        return (epoch, index, key)
    }

    /// The key of the message sent at `index` in `epoch`'s chain. Keys skipped over are kept; a key is given once.
    ///
    /// - Throws: ``SPQRError/keyUnavailable(_:)`` for an epoch no longer (or not yet) kept, an index used or dropped
    ///   already, or a jump beyond ``maximumJump``. Nothing changes then.
    mutating func receiveKey(epoch: UInt64, index: UInt32) throws -> [UInt8] {
        guard var chain = receiving[epoch] else { throw SPQRError.keyUnavailable("epoch \(epoch) is not kept") }
        if index <= chain.counter {
            guard let position = chain.kept.firstIndex(where: { $0.index == index }) else {
                throw SPQRError.keyUnavailable("index \(index) of epoch \(epoch) was used or dropped")
            }
            let key = chain.kept.remove(at: position).key
            receiving[epoch] = chain
            return key
        }
        guard index - chain.counter <= Self.maximumJump else {
            throw SPQRError.keyUnavailable("index \(index) is more than \(Self.maximumJump) ahead of \(chain.counter)")
        }
        // Only the newest skipped keys can be kept: older ones are stepped over without being stored.
        let keepFrom = index > UInt32(Self.maximumKeptKeys) ? index - UInt32(Self.maximumKeptKeys) : 0
        while chain.counter + 1 < index {
            let skipped = chain.advance()
            if skipped.index >= keepFrom { chain.kept.append(skipped) }
        }
        if chain.kept.count > Self.maximumKeptKeys { chain.kept.removeFirst(chain.kept.count - Self.maximumKeptKeys) }
        let key = chain.advance().key
        receiving[epoch] = chain
        return key
    }
}
