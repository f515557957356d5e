import Foundation

/// One Double Ratchet session with one remote device, over its storage protobuf.
///
/// A value type: operations work on a copy and the caller stores it only on success,
/// so a failed decryption never changes stored state.
struct SessionState: Sendable {
    typealias Chain = Parley_Storage_SessionStructure.Chain

    var structure: Parley_Storage_SessionStructure

    init(structure: Parley_Storage_SessionStructure) { self.structure = structure }

    init(
        version: UInt8, localIdentity: IdentityKey, remoteIdentity: IdentityKey, rootKey: RootKey,
        aliceBaseKey: PublicKey, pqAuthKey: [UInt8]?
    ) {
        structure = Parley_Storage_SessionStructure()
        structure.sessionVersion = UInt32(version)
        structure.localIdentityPublic = localIdentity.serialize()
        structure.remoteIdentityPublic = remoteIdentity.serialize()
        structure.rootKey = Data(rootKey.key)
        structure.aliceBaseKey = aliceBaseKey.serialize()
        if let pqAuthKey { structure.pqAuthKey = Data(pqAuthKey) }
    }

    var version: UInt8 { UInt8(truncatingIfNeeded: structure.sessionVersion) }

    func localIdentityKey() throws -> IdentityKey { try IdentityKey(bytes: structure.localIdentityPublic) }

    /// The serialized identity keys, as the MAC covers them (no parsing on the message path).
    var localIdentityBytes: [UInt8] { Array(structure.localIdentityPublic) }
    var remoteIdentityBytes: [UInt8] { Array(structure.remoteIdentityPublic) }
    func remoteIdentityKey() throws -> IdentityKey { try IdentityKey(bytes: structure.remoteIdentityPublic) }

    var rootKey: RootKey {
        get { RootKey(key: Array(structure.rootKey)) }
        set { structure.rootKey = Data(newValue.key) }
    }

    var previousCounter: UInt32 {
        get { structure.previousCounter }
        set { structure.previousCounter = newValue }
    }

    var localRegistrationId: UInt32 {
        get { structure.localRegistrationID }
        set { structure.localRegistrationID = newValue }
    }

    var remoteRegistrationId: UInt32 {
        get { structure.remoteRegistrationID }
        set { structure.remoteRegistrationID = newValue }
    }

    var aliceBaseKey: [UInt8] { Array(structure.aliceBaseKey) }

    /// Whether the session runs the SPQR (triple) ratchet.
    var usesSPQR: Bool { structure.hasSpqr }

    /// The SPQR state, for SPQR sessions.
    func spqr() throws -> SPQRState? {
        structure.hasSpqr ? try SPQRState(structure: structure.spqr) : nil
    }

    mutating func setSPQR(_ state: SPQRState) { structure.spqr = state.structure }

    /// The epoch the next outgoing `pq_ratchet` carries, for SPQR sessions.
    var spqrEpoch: UInt64? { structure.hasSpqr ? structure.spqr.epoch : nil }

    // MARK: Sending chain

    var hasSenderChain: Bool { structure.hasSenderChain }

    func senderRatchetKey() throws -> PublicKey { try PublicKey(structure.senderChain.senderRatchetKey) }
    func senderRatchetPrivateKey() throws -> PrivateKey { try PrivateKey(structure.senderChain.senderRatchetKeyPrivate) }

    mutating func setSenderChain(ratchetKey: PrivateKey, chainKey: ChainKey) {
        var chain = Chain()
        chain.senderRatchetKey = ratchetKey.publicKey.serialize()
        chain.senderRatchetKeyPrivate = ratchetKey.serialize()
        chain.chainKey = Self.storedChainKey(chainKey)
        structure.senderChain = chain
    }

    var senderChainKey: ChainKey {
        get { Self.chainKey(of: structure.senderChain) }
        set { structure.senderChain.chainKey = Self.storedChainKey(newValue) }
    }

    // MARK: Receiving chains

    private func receiverChainIndex(for ratchetKey: PublicKey) -> Int? {
        let serialized = ratchetKey.serialize()
        return structure.receiverChains.firstIndex { $0.senderRatchetKey == serialized }
    }

    func receiverChainKey(for ratchetKey: PublicKey) -> ChainKey? {
        receiverChainIndex(for: ratchetKey).map { Self.chainKey(of: structure.receiverChains[$0]) }
    }

    /// Adds a receiving chain, dropping the oldest beyond ``ProtocolLimits/maximumReceiverChains``.
    mutating func addReceiverChain(ratchetKey: PublicKey, chainKey: ChainKey) {
        var chain = Chain()
        chain.senderRatchetKey = ratchetKey.serialize()
        chain.chainKey = Self.storedChainKey(chainKey)
        structure.receiverChains.append(chain)
        if structure.receiverChains.count > ProtocolLimits.maximumReceiverChains {
            structure.receiverChains.removeFirst(structure.receiverChains.count - ProtocolLimits.maximumReceiverChains)
        }
    }

    mutating func setReceiverChainKey(_ chainKey: ChainKey, for ratchetKey: PublicKey) {
        guard let index = receiverChainIndex(for: ratchetKey) else { return }
        structure.receiverChains[index].chainKey = Self.storedChainKey(chainKey)
    }

    /// Removes and returns the kept message-key seed for `counter` in the chain of `ratchetKey`.
    mutating func takeMessageKeySeed(for ratchetKey: PublicKey, counter: UInt32) -> [UInt8]? {
        guard let chain = receiverChainIndex(for: ratchetKey),
            let position = structure.receiverChains[chain].messageKeys.firstIndex(where: { $0.index == counter })
        else { return nil }
        return Array(structure.receiverChains[chain].messageKeys.remove(at: position).seed)
    }

    /// Keeps skipped message-key seeds, dropping the oldest beyond ``ProtocolLimits/maximumMessageKeys``.
    mutating func keepMessageKeySeeds(_ seeds: [(index: UInt32, seed: [UInt8])], for ratchetKey: PublicKey) {
        guard !seeds.isEmpty, let chain = receiverChainIndex(for: ratchetKey) else { return }
        // Built apart and stored once: appending through the record's storage copies the chain's keys at every step,
        // which made a message far ahead of its chain cost time quadratic in the keys kept (found by fuzzing).
        var keys = structure.receiverChains[chain].messageKeys
        keys.reserveCapacity(keys.count + seeds.count)
        for (index, seed) in seeds {
            var key = Chain.MessageKey()
            key.index = index
            key.seed = Data(seed)
            keys.append(key)
        }
        let excess = keys.count - ProtocolLimits.maximumMessageKeys
        if excess > 0 { keys.removeFirst(excess) }
        structure.receiverChains[chain].messageKeys = keys
    }

    // MARK: Pending pre-key

    struct PendingPreKey: Sendable {
        let preKeyId: UInt32?
        let signedPreKeyId: UInt32
        let baseKey: PublicKey
        let kyberPreKeyId: UInt32?
        let kyberCiphertext: [UInt8]?
        /// When the session was set up, in milliseconds since 1970.
        let timestamp: UInt64
    }

    var pendingPreKey: PendingPreKey? {
        get {
            guard structure.hasPendingPreKey else { return nil }
            let p = structure.pendingPreKey
            guard let baseKey = try? PublicKey(p.baseKey) else { return nil }
            return PendingPreKey(
                preKeyId: p.hasPreKeyID ? p.preKeyID : nil, signedPreKeyId: p.signedPreKeyID, baseKey: baseKey,
                kyberPreKeyId: p.hasKyberPreKeyID ? p.kyberPreKeyID : nil,
                kyberCiphertext: p.hasKyberCiphertext ? Array(p.kyberCiphertext) : nil, timestamp: p.timestamp)
        }
        set {
            guard let newValue else {
                structure.clearPendingPreKey()
                return
            }
            var p = Parley_Storage_SessionStructure.PendingPreKey()
            if let id = newValue.preKeyId { p.preKeyID = id }
            p.signedPreKeyID = newValue.signedPreKeyId
            p.baseKey = newValue.baseKey.serialize()
            if let id = newValue.kyberPreKeyId { p.kyberPreKeyID = id }
            if let ct = newValue.kyberCiphertext { p.kyberCiphertext = Data(ct) }
            p.timestamp = newValue.timestamp
            structure.pendingPreKey = p
        }
    }

    // MARK: Helpers

    private static func chainKey(of chain: Chain) -> ChainKey {
        ChainKey(key: Array(chain.chainKey.key), index: chain.chainKey.index)
    }

    private static func storedChainKey(_ chainKey: ChainKey) -> Chain.ChainKey {
        var stored = Chain.ChainKey()
        stored.index = chainKey.index
        stored.key = Data(chainKey.key)
        return stored
    }
}
