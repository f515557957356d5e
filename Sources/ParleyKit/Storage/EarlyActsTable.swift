import Foundation
import GRDB

/// The `early_acts` table: edits, deletes for everyone and reactions that arrived before the message they concern, or
/// while it could not be decrypted (its sender was asked to send it again), kept until it comes. Deliveries are not
/// ordered across devices and resends, and refusing such an act would lose it for good. Its one owner.
///
/// Bounded, because a peer can name messages that never come: at most ``maximumPerMessage`` acts wait for one
/// message, ``maximumPerAuthor`` from one author and ``maximumHeld`` in all (past those the oldest go first, so a
/// flood from one author pushes out only its own), each for at most ``lifetimeMilliseconds``.
enum EarlyActsTable {
    /// Acts that may wait for one message.
    static let maximumPerMessage = 100
    /// Acts of one author that may wait.
    static let maximumPerAuthor = 100
    /// Acts that may wait in all (each holds at most an edit's text, ≤ 64 KiB).
    static let maximumHeld = 1_000
    /// How long an act waits for its message: a day, the window in which an author may edit or delete.
    static let lifetimeMilliseconds: UInt64 = 24 * 3600 * 1000

    /// One act waiting for the message `targetAuthor` sent at `targetTimestamp`.
    struct HeldAct: Codable {
        /// The act: of the message carrying it, only what applying the act reads (the reaction, the target, an edit's
        /// text and mentions, the group's id and revision), so a peer cannot park anything else here.
        var message: DataMessage
        /// Who sent it, when; `now` is when it arrived.
        var origin: ConversationActions.Origin

        init(_ message: DataMessage, from origin: ConversationActions.Origin) {
            let isEdit = message.editTarget != nil
            self.message = DataMessage(body: isEdit ? message.body : nil, mentions: isEdit ? message.mentions : [],
                                       reaction: message.reaction, deleteTarget: message.deleteTarget, editTarget: message.editTarget,
                                       group: message.group.map { GroupContext(id: $0.id, revision: $0.revision) })
            self.origin = origin
        }
    }

    /// Keeps `act` until the message `targetAuthor` sent at `targetTimestamp` arrives; `false` when that message
    /// already has ``maximumPerMessage`` acts waiting (nothing is kept).
    static func hold(_ act: HeldAct, targetAuthor: String, targetTimestamp: UInt64, _ db: Database) throws -> Bool {
        try sweep(now: act.origin.now, db)
        let waiting = try Int.fetchOne(db, sql: "SELECT count(*) FROM early_acts WHERE target_author = ? AND target_timestamp = ?",
                                       arguments: [targetAuthor, Int64(targetTimestamp)]) ?? 0
        guard waiting < maximumPerMessage else { return false }
        try db.execute(sql: "INSERT INTO early_acts (target_author, target_timestamp, author, act, received_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [targetAuthor, Int64(targetTimestamp), act.origin.author, try JSONEncoder().encode(act), Int64(act.origin.now)])
        try db.execute(sql: """
            DELETE FROM early_acts WHERE id IN (SELECT id FROM early_acts WHERE author = ? ORDER BY id DESC LIMIT -1 OFFSET ?)
            """, arguments: [act.origin.author, maximumPerAuthor])
        try db.execute(sql: """
            DELETE FROM early_acts WHERE id IN (SELECT id FROM early_acts ORDER BY id DESC LIMIT -1 OFFSET ?)
            """, arguments: [maximumHeld])
        return true
    }

    /// Removes and returns, oldest first, the acts waiting for the message `targetAuthor` sent at `targetTimestamp`
    /// that are still within their lifetime at `now`.
    static func take(targetAuthor: String, targetTimestamp: UInt64, now: UInt64, _ db: Database) throws -> [HeldAct] {
        let rows = try Row.fetchAll(db, sql: """
            DELETE FROM early_acts WHERE target_author = ? AND target_timestamp = ? RETURNING id, act, received_at
            """, arguments: [targetAuthor, Int64(targetTimestamp)])
        return rows.sorted { ($0["id"] as Int64) < ($1["id"] as Int64) }.compactMap { row in
            let receivedAt = UInt64(clamping: row["received_at"] as Int64)
            guard now < receivedAt || now - receivedAt <= lifetimeMilliseconds else { return nil }
            return try? JSONDecoder().decode(HeldAct.self, from: row["act"] as Data)
        }
    }

    /// Forgets the acts whose message did not come within their lifetime.
    static func sweep(now: UInt64, _ db: Database) throws {
        guard now > lifetimeMilliseconds else { return }
        try db.execute(sql: "DELETE FROM early_acts WHERE received_at < ?", arguments: [Int64(clamping: now - lifetimeMilliseconds)])
    }

    /// How many acts wait (for tests and diagnostics).
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM early_acts") ?? 0
    }
}
