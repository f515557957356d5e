import Foundation
import GRDB
import ParleyProtocol
import Testing

@testable import ParleyKit

/// ParleyProtocol's sessions over the encrypted database: state changes commit with the transaction that made them.
@Suite struct DatabaseProtocolStoreTests {
    struct Party {
        let database: ParleyDatabase
        let store = DatabaseProtocolStore()
        let address: ProtocolAddress

        init(name: String, directory: URL) throws {
            database = try ParleyDatabase(
                path: directory.appendingPathComponent("\(name).sqlite").path,
                key: try DatabaseKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
            address = try ProtocolAddress(name: name, deviceId: 1)
            let identity = IdentityKeyPair.generate()
            try database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO local_account (id, server_url, username, password, identity_key_pair, registration_id)
                        VALUES (1, 'http://localhost', ?, 'pw', ?, ?)
                        """, arguments: [name, identity.serialize(), Int64.random(in: 1...16380)])
            }
        }

        func bundle() throws -> PreKeyBundle {
            try database.write { db in
                let context = TransactionContext(db)
                let identity = try store.identityKeyPair(context: context)
                let signed = SignedPreKeyRecord.generate(id: 7, timestamp: 0, signedBy: identity.privateKey)
                try store.storeSignedPreKey(signed, id: 7, context: context)
                let preKey = PreKeyRecord.generate(id: 3)
                try store.storePreKey(preKey, id: 3, context: context)
                let kem = KyberPreKeyRecord.generate(id: 9, timestamp: 0, signedBy: identity.privateKey)
                try store.storeKyberPreKey(kem, id: 9, context: context)
                return PreKeyBundle(
                    registrationId: try store.localRegistrationId(context: context), deviceId: 1,
                    oneTimePreKey: (3, try preKey.publicKey()), signedPreKeyId: 7, signedPreKey: try signed.publicKey(),
                    signedPreKeySignature: signed.signature, identity: IdentityKey(publicKey: identity.publicKey),
                    kyberPreKey: (9, try kem.publicKey(), kem.signature))
            }
        }
    }

    @Test func aPQXDHConversationRunsOnDatabaseStoresAndRollsBackWithItsTransaction() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-store-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = try Party(name: "alice", directory: directory)
        let bob = try Party(name: "bob", directory: directory)
        let bundle = try bob.bundle()
        let first = try alice.database.write { db in
            let context = TransactionContext(db, sessionSetupPolicy: .requirePQXDH)
            try processPreKeyBundle(bundle, for: bob.address, sessionStore: alice.store, identityStore: alice.store, context: context)
            return try signalEncrypt(
                message: Array("hello bob".utf8), for: bob.address, sessionStore: alice.store,
                identityStore: alice.store, context: context)
        }
        #expect(first.messageType == .preKey)
        let preKeyMessage = try PreKeySignalMessage(bytes: first.serialize())

        // A receive whose transaction fails (say, storing the message failed) leaves no trace: the same message
        // decrypts again afterwards, and the one-time prekey is still there.
        struct StoreFailed: Error {}
        #expect(throws: StoreFailed.self) {
            try bob.database.write { db in
                let context = TransactionContext(db)
                _ = try signalDecryptPreKey(
                    message: preKeyMessage, from: alice.address, sessionStore: bob.store,
                    identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store,
                    kyberPreKeyStore: bob.store, context: context)
                throw StoreFailed()
            }
        }
        let plaintext = try bob.database.write { db in
            try signalDecryptPreKey(
                message: preKeyMessage, from: alice.address, sessionStore: bob.store, identityStore: bob.store,
                preKeyStore: bob.store, signedPreKeyStore: bob.store, kyberPreKeyStore: bob.store,
                context: TransactionContext(db))
        }
        #expect(Array(plaintext) == Array("hello bob".utf8))
        #expect(try bob.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM prekeys") } == 0)
        #expect(try bob.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kyber_prekeys") } == 0)

        let reply = try bob.database.write { db in
            try signalEncrypt(
                message: Array("hi alice".utf8), for: alice.address, sessionStore: bob.store, identityStore: bob.store,
                context: TransactionContext(db))
        }
        let answer = try alice.database.write { db in
            try signalDecrypt(
                message: try SignalMessage(bytes: reply.serialize()), from: bob.address, sessionStore: alice.store,
                identityStore: alice.store, context: TransactionContext(db))
        }
        #expect(Array(answer) == Array("hi alice".utf8))
    }

    @Test func aChangedIdentityBlocksSendingUntilAccepted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-trust-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = try Party(name: "alice", directory: directory)
        let bob = try ProtocolAddress(name: "bob", deviceId: 1)
        let original = IdentityKey(publicKey: IdentityKeyPair.generate().publicKey)
        let replacement = IdentityKey(publicKey: IdentityKeyPair.generate().publicKey)
        try alice.database.write { db in
            let context = TransactionContext(db)
            #expect(try alice.store.saveIdentity(original, for: bob, context: context) == .newOrUnchanged)
            #expect(try alice.store.isTrustedIdentity(original, for: bob, direction: .sending, context: context))
            #expect(try alice.store.saveIdentity(replacement, for: bob, context: context) == .replacedExisting)
            #expect(try !alice.store.isTrustedIdentity(replacement, for: bob, direction: .sending, context: context))
            #expect(try alice.store.isTrustedIdentity(replacement, for: bob, direction: .receiving, context: context))
            #expect(try alice.store.identityNeedsAcceptance(for: "bob", in: db))
            try alice.store.acceptIdentity(for: "bob", in: db)
            #expect(try alice.store.isTrustedIdentity(replacement, for: bob, direction: .sending, context: context))
        }
        #expect(throws: ParleyError.storeOutsideTransaction) { _ = try alice.store.localRegistrationId(context: NullContext()) }
    }
}
