import Foundation
import GRDB
import Testing

@testable import ParleyKit

@Suite struct DatabaseEncryptionTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-db-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func contains(_ file: String, _ marker: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: file) else { return false }
        return data.range(of: Data(marker.utf8)) != nil
    }

    @Test func theFilesHoldNoPlaintextAndReopenOnlyWithTheKey() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("client.sqlite").path
        let key = try DatabaseKey.fromKeyFile(at: directory.appendingPathComponent("client.key"))
        let marker = "PLAINTEXT-MARKER-\(UUID().uuidString)"
        do {
            let database = try ParleyDatabase(path: path, key: key)
            try database.write { db in
                try db.execute(sql: "INSERT INTO recipients (account_id, username) VALUES ('r', 'someone')")
                try db.execute(sql: "INSERT INTO threads (recipient_account_id, updated) VALUES ('r', 0)")
                for index in 0..<2000 {
                    try db.execute(
                        sql: """
                            INSERT INTO messages (thread_id, outgoing, author_account_id, author_device_id, timestamp, body, status)
                            VALUES (1, 1, 'me', 1, ?, ?, 'sent')
                            """, arguments: [index, "\(marker) number \(index)"])
                }
            }
            // Some pages reach the main file, the latest stay in the WAL.
            _ = try database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try database.write { db in
                try db.execute(sql: "UPDATE messages SET body = ? WHERE id <= 10", arguments: ["\(marker) edited"])
            }
            #expect(!Self.contains(path, marker) && !Self.contains(path + "-wal", marker))
            #expect(!Self.contains(path, "SQLite format 3"))
        }
        let reopened = try ParleyDatabase(path: path, key: key)
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages") } == 2000)
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT body FROM messages WHERE id = 1") } == "\(marker) edited")
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func aWrongKeyIsAClearError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("client.sqlite").path
        do {
            let database = try ParleyDatabase(path: path, key: try DatabaseKey(bytes: [UInt8](repeating: 1, count: 32)))
            try database.write { db in try db.execute(sql: "INSERT INTO recipients (account_id) VALUES ('x')") }
        }
        #expect(throws: ParleyError.wrongDatabaseKey) {
            _ = try ParleyDatabase(path: path, key: try DatabaseKey(bytes: [UInt8](repeating: 2, count: 32)))
        }
    }

    @Test func aFlippedByteInAPageIsDetected() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("client.sqlite").path
        let key = try DatabaseKey(bytes: [UInt8](repeating: 3, count: 32))
        do {
            let database = try ParleyDatabase(path: path, key: key)
            try database.write { db in
                for index in 0..<500 {
                    try db.execute(
                        sql: "INSERT INTO recipients (account_id, username) VALUES (?, ?)",
                        arguments: ["account-\(index)", String(repeating: "n", count: 100)])
                }
            }
            _ = try database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        var byte = try handle.read(upToCount: 1)!
        byte[0] ^= 0x20
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: byte)
        try handle.close()
        // Whichever read touches the page first (opening and migrating, or reading every page of the file) reports it.
        let error = #expect(throws: ParleyError.self) {
            let database = try ParleyDatabase(path: path, key: key)
            _ = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        }
        #expect(error == .databaseCorrupted("a page failed authentication"))
    }

    @Test func observersHearCommittedChangesOnly() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try ParleyDatabase(
            path: directory.appendingPathComponent("client.sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 4, count: 32)))
        let seen = SeenChanges()
        let token = try database.observe(tables: ["recipients", "threads"]) { seen.add($0) }
        try database.write { db in try db.execute(sql: "INSERT INTO recipients (account_id) VALUES ('a')") }
        struct Abort: Error {}
        _ = try? database.write { db in
            try db.execute(sql: "INSERT INTO recipients (account_id) VALUES ('b')")
            throw Abort()
        }
        try database.write { db in try db.execute(sql: "INSERT INTO drafts (thread_id, body, updated) SELECT 1, 'x', 0 WHERE 0") }
        #expect(seen.changes == [DatabaseChange(tables: ["recipients"])])
        token.cancel()
    }

    @Test func passphraseKeysAreStretchedWithASalt() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let salt = directory.appendingPathComponent("client.salt")
        let first = try DatabaseKey.fromPassphrase("correct horse", saltFile: salt)
        let again = try DatabaseKey.fromPassphrase("correct horse", saltFile: salt)
        let other = try DatabaseKey.fromPassphrase("battery staple", saltFile: salt)
        let path = directory.appendingPathComponent("client.sqlite").path
        do { _ = try ParleyDatabase(path: path, key: first) }
        _ = try ParleyDatabase(path: path, key: again)
        #expect(throws: ParleyError.wrongDatabaseKey) { _ = try ParleyDatabase(path: path, key: other) }
        #expect(throws: ParleyError.self) { _ = try DatabaseKey.fromPassphrase("", saltFile: salt) }
    }
}

final class SeenChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [DatabaseChange] = []
    func add(_ change: DatabaseChange) { lock.withLock { storage.append(change) } }
    var changes: [DatabaseChange] { lock.withLock { storage } }
}
