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
}
