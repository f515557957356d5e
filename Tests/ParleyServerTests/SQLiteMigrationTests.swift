import Foundation
import GRDB
import Testing

@testable import ParleyServer

/// Schema upgrades keep what the server holds: a version-7 file with envelopes opens as version 8 (the mailbox copied
/// into a table whose source columns may be NULL) with every envelope, its source and its delivery order intact.
@Suite struct SQLiteMigrationTests {
    @Test func aVersion7MailboxSurvivesTheUpgradeInOrder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let account = UUID().uuidString.lowercased()
        let sender = UUID().uuidString.lowercased()

        // A file as version 7 left it: one recipient device, four envelopes in one millisecond (the rowid orders them).
        let old = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: "v7: registration invites, disabled accounts")
        try await old.write { db in
            for (id, name) in [(account, "rita"), (sender, "sam")] {
                try db.execute(
                    sql: "INSERT INTO accounts (id, username, identity_key, created) VALUES (?, ?, ?, 0)",
                    arguments: [id, name, Data(repeating: 5, count: 33)])
                try db.execute(
                    sql: """
                        INSERT INTO devices (account_id, device_id, registration_id, password_hash, created) VALUES (?, 1, 7, 'x', 0)
                        """, arguments: [id])
            }
            for index in 0..<4 {
                try db.execute(
                    sql: """
                        INSERT INTO mailbox (guid, account_id, device_id, source_account_id, source_device_id, type, content, timestamp,
                                             server_timestamp)
                        VALUES (?, ?, 1, ?, 1, 1, ?, ?, 1000)
                        """, arguments: ["guid-\(3 - index)", account, sender, Data([UInt8(index)]), 500 + index])
            }
        }
        try old.close()

        let store = try SQLiteStore(path: path)
        let envelopes = try await store.pendingEnvelopes(accountId: account, deviceId: 1, notBefore: 0, limit: 10)
        #expect(envelopes.map(\.content) == [[0], [1], [2], [3]])
        #expect(envelopes.map(\.guid) == ["guid-3", "guid-2", "guid-1", "guid-0"])
        #expect(envelopes.allSatisfy { $0.sourceAccountId == sender && $0.sourceDeviceId == 1 })
        let applied = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied.contains("v8: unidentified access, envelopes without a source"))
    }

    /// Version 13 rebuilds the accounts table so an account may have no plain name: every account, device, key backup
    /// and username hash of a version-12 file is still there and still joined, names are still unique whatever their
    /// case, and an account without a name can be added beside them.
    @Test func aVersion12AccountsTableSurvivesTheRebuildForNamelessAccounts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let rita = UUID().uuidString.lowercased()
        let sam = UUID().uuidString.lowercased()

        let old = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: "v12: username hashes and links")
        try await old.write { db in
            for (id, name) in [(rita, "Rita"), (sam, "sam")] {
                try db.execute(
                    sql: """
                        INSERT INTO accounts (id, username, identity_key, created, disabled, unidentified_access_key,
                                              unrestricted_unidentified_access)
                        VALUES (?, ?, ?, 7, ?, ?, 1)
                        """,
                    arguments: [id, name, Data(repeating: 5, count: 33), id == sam, Data(repeating: 9, count: 16)])
                try db.execute(
                    sql: "INSERT INTO devices (account_id, device_id, registration_id, password_hash, created) VALUES (?, 1, 7, 'x', 0)",
                    arguments: [id])
            }
            try db.execute(
                sql: """
                    INSERT INTO key_backups (account_id, blob, kdf_parameters, verifier_hash, created, key_id)
                    VALUES (?, X'01', '{}', X'02', 0, X'03')
                    """, arguments: [rita])
            try db.execute(
                sql: "INSERT INTO username_hashes (hash, account_id, confirmed, reserved_until) VALUES (X'AA', ?, 1, 0)",
                arguments: [rita])
        }
        try old.close()

        let store = try SQLiteStore(path: path)
        let restored = try #require(try await store.account(username: "rita"))
        #expect(restored.id == rita && restored.identityKey == [UInt8](repeating: 5, count: 33) && !restored.disabled)
        #expect(restored.unidentifiedAccessKey == [UInt8](repeating: 9, count: 16) && restored.unrestrictedUnidentifiedAccess)
        #expect(try await store.account(id: sam)?.disabled == true)
        #expect(try await store.devices(accountId: rita).count == 1)
        #expect(try await store.backup(accountId: rita) != nil)
        #expect(try await store.account(usernameHash: [0xAA]) == rita)
        // A nameless account beside them; the names stay unique without regard to case.
        let nameless = UUID().uuidString.lowercased()
        let device = StoredDevice(accountId: nameless, deviceId: 1, registrationId: 3, name: nil, passwordHash: "y", created: 0)
        #expect(
            try await store.createAccount(
                StoredAccount(id: nameless, username: nil, identityKey: [UInt8](repeating: 5, count: 33)), firstDevice: device,
                consumingInvite: nil, now: 0) == .created)
        #expect(try await store.account(id: nameless)?.username == nil)
        let other = UUID().uuidString.lowercased()
        #expect(
            try await store.createAccount(
                StoredAccount(id: other, username: "RITA", identityKey: [UInt8](repeating: 5, count: 33)),
                firstDevice: StoredDevice(accountId: other, deviceId: 1, registrationId: 3, name: nil, passwordHash: "y", created: 0),
                consumingInvite: nil, now: 0) == .usernameTaken)
        try await store.forgetAccountName(accountId: rita)
        #expect(try await store.account(id: rita)?.username == nil)
        #expect(try await store.account(username: "rita") == nil)
        // Deleting an account still cascades to its devices and backup (the foreign keys point at the new table).
        #expect(try await store.deleteAccount(id: rita))
        #expect(try await store.devices(accountId: rita).isEmpty)
        #expect(try await store.backup(accountId: rita) == nil)
        #expect(try await store.account(usernameHash: [0xAA]) == nil)
    }
}
