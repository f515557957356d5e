import Foundation
import Synchronization

/// All protocol stores in memory, for tests, examples and short-lived tools.
///
/// Thread-safe: one mutex guards all state. Identities are trusted on first use;
/// a different identity for a known address is untrusted until saved again.
public final class InMemorySignalProtocolStore: IdentityKeyStore, PreKeyStore, SignedPreKeyStore,
    KyberPreKeyStore, SessionStore, SenderKeyStore, Sendable
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

    public func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair { identity }

    public func localRegistrationId(context: StoreContext) throws -> UInt32 { registrationId }

    public func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress, context: StoreContext) throws -> IdentityChange {
        state.withLock { state in
            let previous = state.identities.updateValue(identity, forKey: address)
            return previous == nil || previous == identity ? .newOrUnchanged : .replacedExisting
        }
    }

    public func isTrustedIdentity(
        _ identity: IdentityKey, for address: ProtocolAddress, direction: Direction, context: StoreContext
    ) throws -> Bool {
        state.withLock { state in state.identities[address].map { $0 == identity } ?? true }
    }

    public func identity(for address: ProtocolAddress, context: StoreContext) throws -> IdentityKey? {
        state.withLock { $0.identities[address] }
    }

    // MARK: PreKeyStore

    public func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord {
        guard let record = state.withLock({ $0.preKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no prekey with id \(id)")
        }
        return record
    }

    public func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.preKeys[id] = record }
    }

    public func removePreKey(id: UInt32, context: StoreContext) throws {
        _ = state.withLock { $0.preKeys.removeValue(forKey: id) }
    }

    // MARK: SignedPreKeyStore

    public func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord {
        guard let record = state.withLock({ $0.signedPreKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no signed prekey with id \(id)")
        }
        return record
    }

    public func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.signedPreKeys[id] = record }
    }

    // MARK: KyberPreKeyStore

    public func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord {
        guard let record = state.withLock({ $0.kyberPreKeys[id] }) else {
            throw SignalError.invalidKeyIdentifier("no KEM prekey with id \(id)")
        }
        return record
    }

    public func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws {
        state.withLock { $0.kyberPreKeys[id] = record }
    }

    /// Records the use; the key stays (this store cannot tell one-time from last-resort keys).
    public func markKyberPreKeyUsed(id: UInt32, context: StoreContext) throws {
        _ = state.withLock { $0.usedKyberPreKeys.insert(id) }
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

    public func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord? {
        state.withLock { $0.sessions[address] }
    }

    public func loadExistingSessions(for addresses: [ProtocolAddress], context: StoreContext) throws -> [SessionRecord] {
        state.withLock { state in addresses.compactMap { state.sessions[$0] } }
    }

    public func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws {
        state.withLock { $0.sessions[address] = record }
    }

    // MARK: SenderKeyStore

    public func storeSenderKey(
        from sender: ProtocolAddress, distributionId: UUID, record: SenderKeyRecord, context: StoreContext
    ) throws {
        state.withLock { $0.senderKeys[SenderKeyName(sender: sender, distributionId: distributionId)] = record }
    }

    public func loadSenderKey(from sender: ProtocolAddress, distributionId: UUID, context: StoreContext) throws -> SenderKeyRecord? {
        state.withLock { $0.senderKeys[SenderKeyName(sender: sender, distributionId: distributionId)] }
    }
}
