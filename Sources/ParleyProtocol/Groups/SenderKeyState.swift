import Foundation

/// One sender-key chain: key id, chain key, signing key, and kept skipped message keys.
struct SenderKeyState: Sendable {
    var structure: Parley_Storage_SenderKeyStateStructure

    init(structure: Parley_Storage_SenderKeyStateStructure) { self.structure = structure }

    init(keyId: UInt32, chainKey: ChainKey, signingKey: PublicKey, signingPrivateKey: PrivateKey?) {
        structure = Parley_Storage_SenderKeyStateStructure()
        structure.senderKeyID = keyId
        structure.senderSigningKey.public = signingKey.serialize()
        if let signingPrivateKey { structure.senderSigningKey.private = signingPrivateKey.serialize() }
        self.chainKey = chainKey
    }

    var keyId: UInt32 { structure.senderKeyID }

    var chainKey: ChainKey {
        get { ChainKey(key: Array(structure.senderChainKey.seed), index: structure.senderChainKey.iteration) }
        set {
            structure.senderChainKey.iteration = newValue.index
            structure.senderChainKey.seed = Data(newValue.key)
        }
    }

    func signingKey() throws -> PublicKey { try PublicKey(structure.senderSigningKey.public) }

    func signingPrivateKey() throws -> PrivateKey? {
        structure.senderSigningKey.hasPrivate ? try PrivateKey(structure.senderSigningKey.private) : nil
    }

    /// Removes and returns the kept message-key seed for `iteration`.
    mutating func takeMessageKeySeed(iteration: UInt32) -> [UInt8]? {
        guard let position = structure.senderMessageKeys.firstIndex(where: { $0.iteration == iteration }) else { return nil }
        return Array(structure.senderMessageKeys.remove(at: position).seed)
    }

    /// Keeps skipped seeds, dropping the oldest beyond ``ProtocolLimits/maximumMessageKeys``.
    mutating func keepMessageKeySeeds(_ seeds: [(index: UInt32, seed: [UInt8])]) {
        guard !seeds.isEmpty else { return }
        // Built apart and stored once, as in ``SessionState/keepMessageKeySeeds(_:for:)``: no copy per key.
        var keys = structure.senderMessageKeys
        keys.reserveCapacity(keys.count + seeds.count)
        for (index, seed) in seeds {
            var key = Parley_Storage_SenderKeyStateStructure.SenderMessageKey()
            key.iteration = index
            key.seed = Data(seed)
            keys.append(key)
        }
        let excess = keys.count - ProtocolLimits.maximumMessageKeys
        if excess > 0 { keys.removeFirst(excess) }
        structure.senderMessageKeys = keys
    }
}
