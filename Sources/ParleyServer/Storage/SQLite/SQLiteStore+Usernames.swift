import Foundation
internal import GRDB

extension SQLiteStore {
    public func reserveUsernameHash(accountId: String, candidates: [[UInt8]], until: UInt64, now: UInt64) async throws -> [UInt8]? {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM username_hashes WHERE account_id = ? AND confirmed = 0", arguments: [accountId])
            for candidate in candidates {
                let holder = try Row.fetchOne(
                    db, sql: "SELECT account_id, confirmed, reserved_until FROM username_hashes WHERE hash = ?",
                    arguments: [Data(candidate)])
                if let holder {
                    let owner: String = holder["account_id"]
                    let confirmed: Bool = holder["confirmed"]
                    if owner == accountId && confirmed { return candidate }
                    if confirmed || UInt64(clamping: holder["reserved_until"] as Int64) > now { continue }
                    try db.execute(sql: "DELETE FROM username_hashes WHERE hash = ?", arguments: [Data(candidate)])
                }
                try db.execute(
                    sql: "INSERT INTO username_hashes (hash, account_id, confirmed, reserved_until) VALUES (?, ?, 0, ?)",
                    arguments: [Data(candidate), accountId, Int64(clamping: until)])
                return candidate
            }
            return nil
        }
    }

    public func confirmUsernameHash(
        accountId: String, hash: [UInt8], now: UInt64, link: (handle: String, encryptedValue: [UInt8])?
    ) async throws -> Bool {
        try await database.write { db in
            let wasConfirmed = try Bool.fetchOne(
                db, sql: "SELECT confirmed FROM username_hashes WHERE hash = ? AND account_id = ?", arguments: [Data(hash), accountId])
            try db.execute(
                sql: """
                    UPDATE username_hashes SET confirmed = 1, reserved_until = 0
                    WHERE hash = ? AND account_id = ? AND (confirmed = 1 OR reserved_until > ?)
                    """,
                arguments: [Data(hash), accountId, Int64(clamping: now)])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM username_hashes WHERE account_id = ? AND hash <> ?", arguments: [accountId, Data(hash)])
            if let link {
                try Self.replaceUsernameLink(of: accountId, handle: link.handle, encryptedValue: link.encryptedValue, db)
            } else if wasConfirmed != true {
                try db.execute(sql: "DELETE FROM username_links WHERE account_id = ?", arguments: [accountId])
            }
            return true
        }
    }

    public func deleteUsernameHash(accountId: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM username_hashes WHERE account_id = ?", arguments: [accountId])
            try db.execute(sql: "DELETE FROM username_links WHERE account_id = ?", arguments: [accountId])
        }
    }

    public func account(usernameHash hash: [UInt8]) async throws -> String? {
        try await database.read { db in
            try String.fetchOne(db, sql: "SELECT account_id FROM username_hashes WHERE hash = ? AND confirmed = 1", arguments: [Data(hash)])
        }
    }

    public func usernameHash(accountId: String) async throws -> (hash: [UInt8], linkHandle: String?)? {
        try await database.read { db in
            guard
                let hash = try Data.fetchOne(
                    db, sql: "SELECT hash FROM username_hashes WHERE account_id = ? AND confirmed = 1", arguments: [accountId])
            else { return nil }
            let handle = try String.fetchOne(db, sql: "SELECT handle FROM username_links WHERE account_id = ?", arguments: [accountId])
            return (Array(hash), handle)
        }
    }

    public func setUsernameLink(accountId: String, encryptedValue: [UInt8], keepHandle: Bool, newHandle: String) async throws -> String? {
        try await database.write { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM username_hashes WHERE account_id = ? AND confirmed = 1", arguments: [accountId]) != nil
            else { return nil }
            let current = try String.fetchOne(db, sql: "SELECT handle FROM username_links WHERE account_id = ?", arguments: [accountId])
            let handle = keepHandle ? current ?? newHandle : newHandle
            try Self.replaceUsernameLink(of: accountId, handle: handle, encryptedValue: encryptedValue, db)
            return handle
        }
    }

    public func usernameLink(handle: String) async throws -> [UInt8]? {
        try await database.read { db in
            try Data.fetchOne(db, sql: "SELECT encrypted_value FROM username_links WHERE handle = ?", arguments: [handle]).map(Array.init)
        }
    }

    public func deleteUsernameLink(accountId: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM username_links WHERE account_id = ?", arguments: [accountId])
        }
    }

    /// Makes `encryptedValue` under `handle` the account's one username link.
    private static func replaceUsernameLink(of accountId: String, handle: String, encryptedValue: [UInt8], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM username_links WHERE account_id = ?", arguments: [accountId])
        try db.execute(
            sql: "INSERT INTO username_links (handle, account_id, encrypted_value) VALUES (?, ?, ?)",
            arguments: [handle, accountId, Data(encryptedValue)])
    }
}
