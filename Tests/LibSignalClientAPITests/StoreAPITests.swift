import Foundation
import ParleyProtocol
import Testing

/// The store contract: `InMemorySignalProtocolStore` is open for subclassing, and a last-resort KEM prekey replayed with
/// the same base key is refused before anything is stored.
@Suite struct StoreAPITests {
    /// A subclass as libsignal's users write them: counts what passes through and can forget sessions.
    final class ObservedStore: InMemorySignalProtocolStore, @unchecked Sendable {
        var storedSessions = 0
        var kyberMarks: [(id: UInt32, signedPreKeyId: UInt32)] = []
        var forgetSessions = false

        override func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws {
            storedSessions += 1
            try super.storeSession(record, for: address, context: context)
        }

        override func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord? {
            forgetSessions ? nil : try super.loadSession(for: address, context: context)
        }

        override func markKyberPreKeyUsed(id: UInt32, signedPreKeyId: UInt32, baseKey: PublicKey, context: StoreContext) throws {
            kyberMarks.append((id, signedPreKeyId))
            try super.markKyberPreKeyUsed(id: id, signedPreKeyId: signedPreKeyId, baseKey: baseKey, context: context)
        }
    }

    @Test func aReplayedLastResortPreKeyMessageIsRefused() throws {
        let bobStore = ObservedStore()
        let alice = Device()
        let bob = Device(store: bobStore)
        // No one-time prekey: only the KEM prekey and signed prekey protect the first message.
        try alice.startSession(with: bob, bundle: try bob.bundle(oneTime: false))
        let first = try alice.encrypt("once", to: bob)
        #expect(try bob.decrypt(first, from: alice) == "once")
        #expect(bobStore.kyberMarks.count == 1 && bobStore.kyberMarks[0].id == 20 && bobStore.kyberMarks[0].signedPreKeyId == 7)
        let storedBefore = bobStore.storedSessions

        // An attacker replays the message to a Bob who no longer has the session: the store refuses the base key.
        bobStore.forgetSessions = true
        #expect(throws: SignalError.self) { try bob.decrypt(first, from: alice) }
        #expect(bobStore.storedSessions == storedBefore, "nothing of the replay is stored")
        bobStore.forgetSessions = false

        // A new message from Alice with a new base key is still accepted on the same last-resort key.
        let again = Device(store: InMemorySignalProtocolStore())
        try again.startSession(
            with: bob,
            bundle: try PreKeyBundle(
                registrationId: try bob.store.localRegistrationId(context: bob.context), deviceId: 1, signedPrekeyId: 7,
                signedPrekey: try bob.store.loadSignedPreKey(id: 7, context: bob.context).publicKey(),
                signedPrekeySignature: try bob.store.loadSignedPreKey(id: 7, context: bob.context).signature,
                identity: bob.identity.identityKey, kyberPrekeyId: 20,
                kyberPrekey: try bob.store.loadKyberPreKey(id: 20, context: bob.context).publicKey(),
                kyberPrekeySignature: try bob.store.loadKyberPreKey(id: 20, context: bob.context).signature))
        #expect(try bob.decrypt(try again.encrypt("fresh", to: bob), from: again) == "fresh")
    }

    @Test func loadExistingSessionsFailsForAMissingSession() throws {
        let alice = Device()
        let bob = Device()
        let carol = Device()
        try alice.startSession(with: bob, bundle: try bob.bundle())
        #expect(try alice.store.loadExistingSessions(for: [bob.address], context: alice.context).count == 1)
        #expect(throws: SignalError.self) {
            try alice.store.loadExistingSessions(for: [bob.address, carol.address], context: alice.context)
        }
    }
}
