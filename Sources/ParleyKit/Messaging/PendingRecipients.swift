import Foundation
import GRDB
import ParleyAPI

/// Messages to a username this device has never looked up, written while the server could not be reached: they are
/// stored at once in a conversation with a placeholder recipient (`pending:NAME`) and a job looks the name up when
/// the server answers — then the messages move into the real conversation and their sends are queued, or, when no
/// account has the name, they are marked failed saying so.
struct PendingRecipients: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient

    /// The job that looks a name up.
    static let jobKind = "resolve-recipient"
    /// How a placeholder account id begins (never a real account id, which is a UUID).
    static let prefix = "pending:"

    struct Job: Codable {
        let username: String
    }

    /// The placeholder account id for `username`: its recipient row and lookup job are made on first use, in `db`.
    static func placeholder(for username: String, _ db: Database, now: UInt64) throws -> String {
        let accountId = prefix + username.lowercased()
        if try String.fetchOne(db, sql: "SELECT account_id FROM recipients WHERE account_id = ?", arguments: [accountId]) == nil {
            try db.execute(sql: "INSERT INTO recipients (account_id, username) VALUES (?, ?)", arguments: [accountId, username])
            try JobQueue.enqueue(kind: jobKind, payload: Job(username: username), db, now: now)
        }
        return accountId
    }

    /// Whether `accountId` is a placeholder.
    static func isPlaceholder(_ accountId: String) -> Bool { accountId.hasPrefix(prefix) }

    /// Looks the job's name up: its messages join the account's conversation and their sends are queued; when no
    /// account has the name they fail with that reason. A server that cannot be reached throws (the job is retried).
    func run(_ job: Job, as credentials: DeviceCredentials, now: UInt64) async throws {
        let placeholder = Self.prefix + job.username.lowercased()
        let found: AccountLookupResponse
        do {
            found = try await api.lookup(username: job.username, as: credentials)
        } catch let error as ServerAPIError where error.status == 404 {
            try await database.awaitableWrite { db in
                try db.execute(sql: """
                    UPDATE messages SET status = ?, failure_reason = ?
                    WHERE thread_id = (SELECT id FROM threads WHERE recipient_account_id = ?) AND status = ?
                    """, arguments: [MessageStatus.failed.rawValue, "no account is named \(job.username)", placeholder, MessageStatus.sending.rawValue])
            }
            return
        }
        try await database.awaitableWrite { db in
            try db.execute(sql: "INSERT INTO recipients (account_id, username) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET username = excluded.username",
                           arguments: [found.accountId, found.username])
            guard let pendingThread = try ConversationStore.existingThread(with: placeholder, db) else { return }
            let waiting = try Int64.fetchAll(db, sql: "SELECT id FROM messages WHERE thread_id = ? AND status = ? ORDER BY id",
                                             arguments: [pendingThread, MessageStatus.sending.rawValue])
            if let thread = try ConversationStore.existingThread(with: found.accountId, db) {
                try db.execute(sql: "UPDATE messages SET thread_id = ? WHERE thread_id = ?", arguments: [thread, pendingThread])
                try db.execute(sql: "UPDATE threads SET last_message_id = (SELECT MAX(id) FROM messages WHERE thread_id = ?), updated = ? WHERE id = ?",
                               arguments: [thread, Int64(now), thread])
                try db.execute(sql: "DELETE FROM threads WHERE id = ?", arguments: [pendingThread])
            } else {
                try db.execute(sql: "UPDATE threads SET recipient_account_id = ? WHERE id = ?", arguments: [found.accountId, pendingThread])
            }
            try db.execute(sql: "DELETE FROM recipients WHERE account_id = ?", arguments: [placeholder])
            for messageId in waiting {
                try JobQueue.enqueue(kind: "send", payload: MessageSender.SendJob(messageId: messageId), db, now: now)
            }
        }
    }
}
