import Foundation
import ParleyAPI
import ParleyProtocol

/// Messages to a username this device has never looked up, written while the server could not be reached: they are
/// stored at once in a conversation with a placeholder recipient (`pending:NAME`) and a job looks the name up when
/// the server answers — then the messages move into the real conversation and their sends are queued, or, when no
/// account has the name, they are marked failed saying so.
struct PendingRecipients: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient

    /// How a placeholder account id begins (never a real account id, which is a UUID).
    static let prefix = "pending:"

    /// The job that looks a name up.
    struct Job: Codable, Sendable {
        let username: String
    }

    /// The placeholder account id for `username`: its recipient row and lookup job are made on first use, in `db`.
    static func placeholder(for username: String, _ db: StorageTransaction, now: UInt64) throws -> String {
        let accountId = prefix + username.lowercased()
        if try !RecipientsTable.contains(accountId, db) {
            try RecipientsTable.ensure(accountId, username: username, db)
            try JobQueue.enqueue(.resolveRecipient(Job(username: username)), now: now, db)
        }
        return accountId
    }

    /// Whether `accountId` is a placeholder.
    static func isPlaceholder(_ accountId: String) -> Bool { accountId.hasPrefix(prefix) }

    /// Looks the job's name up: its messages join the account's conversation and their sends are queued; when no
    /// account has the name they fail with that reason. A server that cannot be reached throws (the job is retried).
    func run(_ job: Job, as credentials: DeviceCredentials, now: UInt64) async throws {
        let placeholder = Self.prefix + job.username.lowercased()
        let found: AccountLookupResponse?
        var reason = "no account is named \(job.username)"
        do {
            found = try await api.findAccount(named: job.username, as: credentials)
        } catch let error as SignalError {
            // A username link whose value does not decrypt: no retry will change that.
            (found, reason) = (nil, "\(job.username): \(error)")
        } catch ParleyError.invalidArgument(let detail) {
            (found, reason) = (nil, detail)
        }
        guard let found else {
            let reason = reason
            try await database.awaitableWrite { db in
                guard let pendingConversation = try ConversationsTable.id(with: placeholder, db) else { return }
                try MessagesTable.failSending(conversationId: pendingConversation, reason: reason, db)
            }
            return
        }
        try await database.awaitableWrite { db in
            try RecipientsTable.setUsername(found.username ?? job.username, for: found.accountId, db)
            guard let pendingConversation = try ConversationsTable.id(with: placeholder, db) else { return }
            let waiting = try MessagesTable.sending(conversationId: pendingConversation, db)
            if let conversation = try ConversationsTable.id(with: found.accountId, db) {
                try ConversationsTable.merge(pendingConversation, into: conversation, now: now, db)
            } else {
                try ConversationsTable.reassign(pendingConversation, to: found.accountId, db)
            }
            try RecipientsTable.delete(placeholder, db)
            for messageId in waiting { try JobQueue.enqueue(.send(MessageSender.SendJob(messageId: messageId)), now: now, db) }
        }
    }
}
