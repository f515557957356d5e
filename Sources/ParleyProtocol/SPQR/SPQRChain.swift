/// The symmetric half of SPQR: per epoch a link of two chains, one per direction, whose message keys salt the
/// Double Ratchet's "WhisperMessageKeys" derivation. Epoch 0's link comes from the session's authentication key;
/// each completed KEM exchange adds the next. A message of epoch e takes its key from link e − 1. Keys of messages
/// that have not arrived are kept (those up to ``maximumKeptKeys`` behind the counter), and a step of more than
/// ``maximumJump`` ahead is refused.
struct SPQRChain: Sendable, Equatable {
    /// Which way a chain runs.
    enum Direction: Sendable, Equatable {
        /// From the session's initiator (Alice) to its responder.
        case aliceToBob
        /// From the responder to the initiator.
        case bobToAlice
    }

    /// How far behind the counter a kept key may be (libsignal: max_ooo_keys).
    static let maximumKeptKeys: UInt32 = 2_000
    /// The largest step forward a received index may take (libsignal: max_jump).
    static let maximumJump: UInt32 = 25_000
    /// Links kept before the newest send epoch (libsignal: EPOCHS_TO_KEEP_PRIOR_TO_SEND_EPOCH).
    static let keptEpochsBeforeSendEpoch: UInt64 = 1

    /// One direction's chain in one epoch.
    struct Chain: Sendable, Equatable {
        var next: [UInt8]
        var counter: UInt32 = 0
        /// Keys skipped over, by index.
        var kept: [UInt32: [UInt8]] = [:]

        /// The key of the next index.
        mutating func advance() -> (index: UInt32, key: [UInt8]) {
            precondition(counter < UInt32.max, "2^32 messages in one SPQR epoch")
            counter += 1
            let okm = SPQRKDF.hkdf(next, info: SPQRKDF.bigEndian(counter) + Array("Signal PQ Ratchet V1 Chain Next".utf8), count: 64)
            next = Array(okm[0..<32])
            return (counter, Array(okm[32..<64]))
        }
    }

    /// One epoch's pair of chains.
    struct Link: Sendable, Equatable {
        var sending: Chain
        var receiving: Chain
    }

    let direction: Direction
    /// The largest step forward a received index may take in this session.
    let maximumJump: UInt32
    var nextRoot: [UInt8]
    /// The links kept, by epoch.
    var links: [UInt64: Link]
    /// The newest epoch with a link.
    var newestEpoch: UInt64 = 0
    var sendEpoch: UInt64 = 0

    /// The chains of a new session from `authKey`, for the side whose messages run in `direction`.
    init(authKey: [UInt8], direction: Direction, maximumJump: UInt32 = Self.maximumJump) {
        self.direction = direction
        self.maximumJump = maximumJump
        let okm = SPQRKDF.hkdf(authKey, info: Array("Signal PQ Ratchet V1 Chain  Start".utf8), count: 96)
        nextRoot = Array(okm[0..<32])
        links = [0: Self.link(okm, direction)]
    }

    /// A chain with these parts (a stored state).
    init(direction: Direction, maximumJump: UInt32, nextRoot: [UInt8], links: [UInt64: Link], newestEpoch: UInt64, sendEpoch: UInt64) {
        self.direction = direction
        self.maximumJump = maximumJump
        self.nextRoot = nextRoot
        self.links = links
        self.newestEpoch = newestEpoch
        self.sendEpoch = sendEpoch
    }

    private static func link(_ okm: [UInt8], _ direction: Direction) -> Link {
        let aliceToBob = Chain(next: Array(okm[32..<64]))
        let bobToAlice = Chain(next: Array(okm[64..<96]))
        return direction == .aliceToBob
            ? Link(sending: aliceToBob, receiving: bobToAlice) : Link(sending: bobToAlice, receiving: aliceToBob)
    }

    /// Adds the link of `epoch` — always the next one — from its KEM exchange's `secret`.
    ///
    /// - Throws: ``SPQRError/keyUnavailable(_:)`` when `epoch` is not the next epoch.
    mutating func addEpoch(_ epoch: UInt64, secret: [UInt8]) throws {
        guard epoch == newestEpoch + 1 else { throw SPQRError.keyUnavailable("epoch \(epoch) added after \(newestEpoch)") }
        let okm = SPQRKDF.hkdf(secret, salt: nextRoot, info: Array("Signal PQ Ratchet V1 Chain Add Epoch".utf8), count: 96)
        nextRoot = Array(okm[0..<32])
        newestEpoch += 1
        links[newestEpoch] = Self.link(okm, direction)
    }

    /// The key of the next message sent from link `epoch`, with its index. Moving to a newer send epoch drops
    /// the links more than ``keptEpochsBeforeSendEpoch`` before it.
    ///
    /// - Throws: ``SPQRError/keyUnavailable(_:)`` when there is no such link.
    mutating func sendKey(epoch: UInt64) throws -> (index: UInt32, key: [UInt8]) {
        guard var link = links[epoch] else { throw SPQRError.keyUnavailable("no chain for epoch \(epoch)") }
        let (index, key) = link.sending.advance()
        links[epoch] = link
        if epoch > sendEpoch {
            sendEpoch = epoch
            for old in links.keys where old + Self.keptEpochsBeforeSendEpoch < epoch { links[old] = nil }
        }
        return (index, key)
    }

    /// The key of the message sent at `index` from link `epoch`. Keys skipped over are kept; each is given once.
    ///
    /// - Throws: ``SPQRError/keyUnavailable(_:)`` for a link not kept (or not made yet), an index used already or
    ///   more than ``maximumKeptKeys`` behind, or a step beyond ``maximumJump``. Nothing changes then.
    mutating func receiveKey(epoch: UInt64, index: UInt32) throws -> [UInt8] {
        guard var link = links[epoch] else { throw SPQRError.keyUnavailable("epoch \(epoch) is not kept") }
        var chain = link.receiving
        if index <= chain.counter {
            guard chain.counter - index <= Self.maximumKeptKeys, let key = chain.kept.removeValue(forKey: index) else {
                throw SPQRError.keyUnavailable("index \(index) of epoch \(epoch) was used or is too old")
            }
            link.receiving = chain
            links[epoch] = link
            return key
        }
        guard index - chain.counter <= maximumJump else {
            throw SPQRError.keyUnavailable("index \(index) is more than \(maximumJump) ahead of \(chain.counter)")
        }
        // Only skipped keys that will still be within reach are stored.
        let reach = index > Self.maximumKeptKeys ? index - Self.maximumKeptKeys : 0
        while chain.counter + 1 < index {
            let skipped = chain.advance()
            if skipped.index >= reach { chain.kept[skipped.index] = skipped.key }
        }
        let key = chain.advance().key
        if chain.kept.count > Int(Self.maximumKeptKeys) + 200 {
            chain.kept = chain.kept.filter { chain.counter - $0.key <= Self.maximumKeptKeys }
        }
        link.receiving = chain
        links[epoch] = link
        return key
    }
}
