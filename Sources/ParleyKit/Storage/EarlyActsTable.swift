import Foundation
internal import GRDB

/// The `early_acts` table: edits, deletes for everyone and reactions that arrived before the message they concern, or
/// while it could not be decrypted (its sender was asked to send it again), kept until it comes. Deliveries are not
/// ordered across devices and resends, and refusing such an act would lose it for good. Its one owner.
///
/// Bounded, because a peer can name messages that never come:
/// - one author keeps one act of each kind (reaction, edit, delete) per message: the newest by its sending time;
/// - at most ``maximumReactionsPerMessage`` reactions wait for one message (its author's edit or delete is never
///   turned away for them);
/// - one author's acts take at most ``maximumPerAuthor`` rows and ``maximumBytesPerAuthor`` bytes, all acts together
///   ``maximumHeld`` rows and ``maximumBytes`` bytes; past those the oldest go first;
/// - an act waits at most ``lifetimeMilliseconds``, or its conversation's disappearing-message timer when that is
///   shorter (an edit's text is content like any other).
enum EarlyActsTable {
    /// Reactions that may wait for one message.
    static let maximumReactionsPerMessage = 100
    /// Acts of one author that may wait.
    static let maximumPerAuthor = 100
    /// Bytes one author's waiting acts may take (an edit's text is at most 64 KiB).
    static let maximumBytesPerAuthor = 1 << 20
    /// Acts that may wait in all.
    static let maximumHeld = 1_000
    /// Bytes all waiting acts may take.
    static let maximumBytes = 8 << 20
    /// How long an act waits for its message at most: a day, the window in which an author may edit or delete.
    static let lifetimeMilliseconds: UInt64 = 24 * 3600 * 1000

    /// What an act does to its message.
    enum Kind: String {
        case reaction, edit, delete
    }

    /// One act waiting for its message.
    struct HeldAct {
        /// The act: of the message carrying it, only what applying the act reads (the reaction, the target, an edit's
        /// text and mentions, the group's id and revision), so a peer cannot park anything else here.
        var message: DataMessage
        /// Who sent it, when; `now` is when it arrived.
        var origin: MessageOrigin

        init(_ message: DataMessage, from origin: MessageOrigin) {
            let isEdit = message.editTarget != nil
            self.message = DataMessage(
                body: isEdit ? message.body : nil, mentions: isEdit ? message.mentions : [],
                reaction: message.reaction, deleteTarget: message.deleteTarget, editTarget: message.editTarget,
                group: message.group.map { GroupContext(id: $0.id, revision: $0.revision) })
            self.origin = origin
        }

        var kind: Kind { message.reaction != nil ? .reaction : message.editTarget != nil ? .edit : .delete }
    }

    /// What ``hold(_:targetAuthor:targetTimestamp:keepFor:_:)`` did.
    enum Holding: Equatable {
        /// Kept.
        case held
        /// Not kept: the same author's act of the same kind, sent later, already waits for the message.
        case superseded
        /// Not kept: ``maximumReactionsPerMessage`` reactions already wait for the message.
        case turnedAway
    }

    /// Keeps `act` for at most `lifetime` milliseconds, until the message `targetAuthor` sent at `targetTimestamp`
    /// arrives.
    static func hold(_ act: HeldAct, targetAuthor: String, targetTimestamp: UInt64, keepFor lifetime: UInt64, _ db: Database) throws
        -> Holding
    {
        try sweep(now: act.origin.now, db)
        let same: StatementArguments = [targetAuthor, Int64(targetTimestamp), act.origin.author, act.kind.rawValue]
        let sameFilter = "target_author = ? AND target_timestamp = ? AND author = ? AND kind = ?"
        if let waiting = try Int64.fetchOne(db, sql: "SELECT acted_at FROM early_acts WHERE \(sameFilter)", arguments: same),
            UInt64(clamping: waiting) >= act.origin.timestamp
        {
            return .superseded
        }
        try db.execute(sql: "DELETE FROM early_acts WHERE \(sameFilter)", arguments: same)
        if act.kind == .reaction {
            let reactions =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM early_acts WHERE target_author = ? AND target_timestamp = ? AND kind = ?
                        """, arguments: [targetAuthor, Int64(targetTimestamp), Kind.reaction.rawValue]) ?? 0
            guard reactions < maximumReactionsPerMessage else { return .turnedAway }
        }
        let expiresAt = act.origin.now.addingReportingOverflow(min(lifetime, lifetimeMilliseconds))
        try db.execute(
            sql: """
                INSERT INTO early_acts (target_author, target_timestamp, author, kind, acted_at, act, origin, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                targetAuthor, Int64(targetTimestamp), act.origin.author, act.kind.rawValue, Int64(clamping: act.origin.timestamp),
                Data(try MessageContent(dataMessage: act.message).encode()), try JSONEncoder().encode(act.origin),
                Int64(clamping: expiresAt.overflow ? UInt64.max : expiresAt.partialValue),
            ])
        try evict(beyond: maximumPerAuthor, bytes: maximumBytesPerAuthor, of: act.origin.author, db)
        try evict(beyond: maximumHeld, bytes: maximumBytes, of: nil, db)
        return .held
    }

    /// Deletes the oldest acts (of `author`, or of anyone) past the newest `count` or past `bytes` in all.
    private static func evict(beyond count: Int, bytes: Int, of author: String?, _ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM early_acts WHERE id IN (
                    SELECT id FROM (
                        SELECT id, row_number() OVER newest AS n, sum(length(act) + length(origin)) OVER newest AS total
                        FROM early_acts WHERE author = coalesce(?, author) WINDOW newest AS (ORDER BY id DESC))
                    WHERE n > ? OR total > ?)
                """, arguments: [author, count, bytes])
    }

    /// Removes and returns, oldest first, the acts waiting for the message `targetAuthor` sent at `targetTimestamp`
    /// that have not expired at `now`.
    static func take(targetAuthor: String, targetTimestamp: UInt64, now: UInt64, _ db: Database) throws -> [HeldAct] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                DELETE FROM early_acts WHERE target_author = ? AND target_timestamp = ? RETURNING id, act, origin, expires_at
                """, arguments: [targetAuthor, Int64(targetTimestamp)])
        return rows.sorted { ($0["id"] as Int64) < ($1["id"] as Int64) }.compactMap { row in
            guard UInt64(clamping: row["expires_at"] as Int64) > now,
                let message = try? MessageContent.decode([UInt8](row["act"] as Data)).dataMessage,
                let origin = try? JSONDecoder().decode(MessageOrigin.self, from: row["origin"] as Data)
            else { return nil }
            return HeldAct(message, from: origin)
        }
    }

    /// Forgets the acts whose message did not come in time; returns how many.
    @discardableResult
    static func sweep(now: UInt64, _ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM early_acts WHERE expires_at <= ?", arguments: [Int64(clamping: now)])
        return db.changesCount
    }

    /// How many acts wait (for tests and diagnostics).
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM early_acts") ?? 0
    }
}
