import Foundation
import Synchronization

/// All protocol stores in memory, for tests, examples and short-lived tools.
///
/// Thread-safe: one mutex guards all state. Identities are trusted on first use;
/// a different identity for a known address is untrusted until saved again.
///
/// Open, as LibSignalClient's is: subclasses override any requirement (to log, to count, to fail on purpose in a
/// test) and call `super`.
open class InMemorySignalProtocolStore: IdentityKeyStore, PreKeyStore, SignedPreKeyStore,
    KyberPreKeyStore, SessionStore, SenderKeyStore, @unchecked Sendable
{
    private struct SenderKeyName: Hashable {
        let sender: ProtocolAddress
        let distributionId: UUID
    }

    private struct State {
        var identities: [ProtocolAddress: IdentityKey] = [:]
        var preKeys: [UInt32: PreKeyRecord] = [:]
        var signedPreKeys: [UInt32: SignedPreKeyRecord] = [:]
        var kyberPreKeys: [UInt32: KyberPreKeyRecord] = [:]
        var usedKyberPreKeys: Set<UInt32> = []
        /// Base keys seen with each (KEM prekey id, signed prekey id), to refuse a replayed pre-key message.
        var baseKeysSeen: [UInt64: Set<PublicKey>] = [:]
        var sessions: [ProtocolAddress: SessionRecord] = [:]
        var senderKeys: [SenderKeyName: SenderKeyRecord] = [:]
    }

    private let identity: IdentityKeyPair
    private let registrationId: UInt32
    /// Guards every record this store holds.
    private let state = Mutex(State())

    /// A store with a fresh identity and a random registration id (1…16380).
    public convenience init() {
        self.init(identity: .generate(), registrationId: SecureRandom.value(in: 1...16380))
    }

    /// A store for the given identity and registration id.
    public init(identity: IdentityKeyPair, registrationId: UInt32) {
        self.identity = identity
        self.registrationId = registrationId
    }

    // MARK: IdentityKeyStore

    open func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair { identity }

    open func localRegistrationId(context: StoreContext) throws -> UInt32 { registrationId }

    open func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress, context: StoreContext) throws -> IdentityChange {
        state.withLock { state in
            let previous = state.identities.updateValue(identity, forKey: address)
            return previous == nil || previous == identity ? .newOrUnchanged : .replacedExisting
        }
    }

    open func isTrustedIdentity(
        _ identity: IdentityKey, for address: ProtocolAddress, direction: Direction, context: StoreContext
    ) throws -> Bool {
        state.withLock { state in state.identities[address].map { $0 == identity } ?? true }
    }

    open func identity(for address: ProtocolAddress, context: StoreContext) throws -> IdentityKey? {
        state.withLock { $0.identities[address] }
    }

    // MARK: PreKeyStore

    open func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord {
        guard let record = state.withLock({ $0.preKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no prekey with id \(id)")
        }
        return record
    }

    open func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.preKeys[id] = record }
    }

    open func removePreKey(id: UInt32, context: StoreContext) throws {
        _ = state.withLock { $0.preKeys.removeValue(forKey: id) }
    }

    // MARK: SignedPreKeyStore

    open func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord {
        guard let record = state.withLock({ $0.signedPreKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no signed prekey with id \(id)")
        }
        return record
    }

    open func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.signedPreKeys[id] = record }
    }

    // MARK: KyberPreKeyStore

    open func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord {
        guard let record = state.withLock({ $0.kyberPreKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no KEM prekey with id \(id)")
        }
        return record
    }

    open func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.kyberPreKeys[id] = record }
    }

    /// Records the use and the base key; the key stays (this store treats every KEM prekey as last-resort).
    /// - Throws: ``SignalError/invalidMessage(_:)`` when `baseKey` was seen before with the same two ids (a replay).
    open func markKyberPreKeyUsed(id: UInt32, signedPreKeyId: UInt32, baseKey: PublicKey, context: StoreContext) throws {
        let bothIds = UInt64(id) << 32 | UInt64(signedPreKeyId)
        try state.withLock { state in
            guard state.baseKeysSeen[bothIds, default: []].insert(baseKey).inserted else {
                throw SignalError.invalidMessage("KEM prekey \(id) with signed prekey \(signedPreKeyId) and this base key was used before")
            }
            state.usedKyberPreKeys.insert(id)
        }
    }

    /// Whether a session has used KEM prekey `id`.
    public func isKyberPreKeyUsed(id: UInt32) -> Bool {
        state.withLock { $0.usedKyberPreKeys.contains(id) }
    }

    /// Whether one-time prekey `id` is still stored.
    public func containsPreKey(id: UInt32) -> Bool {
        state.withLock { $0.preKeys[id] != nil }
    }

    // MARK: SessionStore

    open func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord? {
        state.withLock { $0.sessions[address] }
    }

    /// The records for `addresses`, in order.
    /// - Throws: ``SignalError/sessionNotFound(_:)`` when one of them has no session (as LibSignalClient's store).
    open func loadExistingSessions(for addresses: [ProtocolAddress], context: StoreContext) throws -> [SessionRecord] {
        try state.withLock { state in
            try addresses.map { address in
                guard let record = state.sessions[address] else { throw SignalError.sessionNotFound("no session for \(address)") }
                return record
            }
        }
    }

    open func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws {
        state.withLock { $0.sessions[address] = record }
    }

    // MARK: SenderKeyStore

    open func storeSenderKey(
        from sender: ProtocolAddress, distributionId: UUID, record: SenderKeyRecord, context: StoreContext
    ) throws {
        state.withLock { $0.senderKeys[SenderKeyName(sender: sender, distributionId: distributionId)] = record }
    }

    open func loadSenderKey(from sender: ProtocolAddress, distributionId: UUID, context: StoreContext) throws -> SenderKeyRecord? {
        state.withLock { $0.senderKeys[SenderKeyName(sender: sender, distributionId: distributionId)] }
    }
}
