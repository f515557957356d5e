import Foundation
import FuzzHarness
import ParleyProtocol

/// A view of a fixture's stores that reads everything and keeps no write, so every input meets the same state (libFuzzer
/// needs the same input to behave the same way) while the code under test runs its full path, writes included.
final class ReadOnlyStore: SessionStore, IdentityKeyStore, PreKeyStore, SignedPreKeyStore, KyberPreKeyStore, SenderKeyStore {
    private let base: InMemorySignalProtocolStore

    init(_ base: InMemorySignalProtocolStore) { self.base = base }

    func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord? {
        try base.loadSession(for: address, context: context)
    }
    func loadExistingSessions(for addresses: [ProtocolAddress], context: StoreContext) throws -> [SessionRecord] {
        try base.loadExistingSessions(for: addresses, context: context)
    }
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws {
        // Whatever was stored must load again.
        invariant((try? SessionRecord(bytes: record.serialize())) != nil, "a session record the protocol stores re-parses")
    }

    func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair { try base.identityKeyPair(context: context) }
    func localRegistrationId(context: StoreContext) throws -> UInt32 { try base.localRegistrationId(context: context) }
    func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress, context: StoreContext) throws -> IdentityChange {
        try base.identity(for: address, context: context).map { $0 == identity ? .newOrUnchanged : .replacedExisting } ?? .newOrUnchanged
    }
    func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: Direction, context: StoreContext) throws
        -> Bool
    {
        try base.isTrustedIdentity(identity, for: address, direction: direction, context: context)
    }
    func identity(for address: ProtocolAddress, context: StoreContext) throws -> IdentityKey? {
        try base.identity(for: address, context: context)
    }

    func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord { try base.loadPreKey(id: id, context: context) }
    func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws {}
    func removePreKey(id: UInt32, context: StoreContext) throws {}
    func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord {
        try base.loadSignedPreKey(id: id, context: context)
    }
    func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws {}
    func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord {
        try base.loadKyberPreKey(id: id, context: context)
    }
    func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws {}
    func markKyberPreKeyUsed(id: UInt32, signedPreKeyId: UInt32, baseKey: PublicKey, context: StoreContext) throws {}

    func storeSenderKey(from sender: ProtocolAddress, distributionId: UUID, record: SenderKeyRecord, context: StoreContext) throws {}
    func loadSenderKey(from sender: ProtocolAddress, distributionId: UUID, context: StoreContext) throws -> SenderKeyRecord? {
        try base.loadSenderKey(from: sender, distributionId: distributionId, context: context)
    }
}
