import Foundation
internal import GRDB

/// The `recipients` table: every account this device knows of, with its username when known (and one its messages claim,
/// until checked), its profile key, and
/// whether the server refused the access key derived from that key. Its one owner: every read and write goes through here.
enum RecipientsTable {
    /// Adds `accountId` when it is not known yet; `username`, when given, names it unless it has a name already.
    static func ensure(_ accountId: String, username: String? = nil, _ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO recipients (account_id, username) VALUES (?, ?)", arguments: [accountId, username])
        if let username {
            try db.execute(
                sql: "UPDATE recipients SET username = ? WHERE account_id = ? AND username IS NULL",
                arguments: [username, accountId])
        }
    }

    /// Whether `accountId` is known.
    static func contains(_ accountId: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM recipients WHERE account_id = ?)", arguments: [accountId]) ?? false
    }

    /// Records that `accountId` is named `username` (a look-up's answer replaces what was known).
    static func setUsername(_ username: String, for accountId: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO recipients (account_id, username) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET username = excluded.username
                """, arguments: [accountId, username])
    }

    /// The usernames this device knows for `accountIds` (those it knows).
    static func usernames(of accountIds: some Sequence<String>, _ db: Database) throws -> [String: String] {
        var names: [String: String] = [:]
        for accountId in accountIds {
            if let name = try String.fetchOne(db, sql: "SELECT username FROM recipients WHERE account_id = ?", arguments: [accountId]) {
                names[accountId] = name
            }
        }
        return names
    }

    /// Up to `limit` accounts known only by id.
    static func unnamed(limit: Int, _ db: Database) throws -> [(accountId: String, claimedUsername: String?)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT account_id, claimed_username FROM recipients
                WHERE username IS NULL OR (claimed_username IS NOT NULL AND claimed_username != username) LIMIT ?
                """, arguments: [limit]
        ).map { ($0["account_id"], $0["claimed_username"]) }
    }

    /// Keeps `username` as the name `accountId`'s message claims, to be checked (``settleClaim(of:verified:_:)``).
    static func keep(claimedUsername username: String, of accountId: String, _ db: Database) throws {
        try ensure(accountId, db)
        try db.execute(
            sql: "UPDATE recipients SET claimed_username = ? WHERE account_id = ? AND claimed_username IS NOT ? AND username IS NOT ?",
            arguments: [username, accountId, username, username])
    }

    /// Ends `accountId`'s claim: its username when the claim's hash led to the account (`verified`), else nothing.
    static func settleClaim(of accountId: String, verified: Bool, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE recipients SET username = CASE WHEN ? THEN claimed_username ELSE username END, claimed_username = NULL
                WHERE account_id = ?
                """, arguments: [verified, accountId])
    }

    /// The account known as `username` (without regard to case), leaving out placeholders whose names were not looked up
    /// yet (those whose id begins with `placeholderPrefix`).
    static func accountId(named username: String, placeholderPrefix: String, _ db: Database) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT account_id FROM recipients WHERE username = ? COLLATE NOCASE AND substr(account_id, 1, ?) != ?
                ORDER BY account_id LIMIT 1
                """, arguments: [username, placeholderPrefix.count, placeholderPrefix])
    }

    /// Forgets `accountId`.
    static func delete(_ accountId: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM recipients WHERE account_id = ?", arguments: [accountId])
    }

    /// The profile key kept for `accountId`, unless the server refused the access key derived from it.
    static func usableProfileKey(of accountId: String, _ db: Database) throws -> Data? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT profile_key, sealed_refused FROM recipients WHERE account_id = ?",
                arguments: [accountId]),
            !(row["sealed_refused"] as Bool)
        else { return nil }
        return row["profile_key"]
    }

    /// The profile key kept for `accountId`, if any (whether or not its access key was refused).
    static func profileKey(of accountId: String, _ db: Database) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT profile_key FROM recipients WHERE account_id = ?", arguments: [accountId])
    }

    /// Records that the server refused the access key of `accountId`.
    static func refuseAccessKey(of accountId: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE recipients SET sealed_refused = 1 WHERE account_id = ?", arguments: [accountId])
    }

    /// Keeps `profileKey` for `accountId`; a new key lifts an earlier refusal of the access key derived from the old one.
    static func keep(profileKey: Data, of accountId: String, _ db: Database) throws {
        try ensure(accountId, db)
        try db.execute(
            sql: """
                UPDATE recipients SET profile_key = ?, sealed_refused = 0 WHERE account_id = ? AND (profile_key IS NULL OR profile_key != ?)
                """, arguments: [profileKey, accountId, profileKey])
    }
}
