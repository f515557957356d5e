import ArgumentParser
import Foundation
import ParleyKit

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "A conversation's messages, newest first.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id (omit with --group).") var recipient: String?
    @Option(help: "A group's history (its id from `parley group list`).") var group: String?
    @Option(help: "Show messages older than this message id (the cursor the previous page printed).") var before: Int64?
    @Option(help: "Messages per page.") var limit = 20
    @Flag(help: "Do not mark the conversation read (no read receipts, disappearing timers not started).") var keepUnread = false

    func run() async throws {
        let page = try await AccountContext.with(options) { client -> MessagePage in
            let conversation: Int64?
            if let group {
                let id = try GroupCommand.id(group)
                conversation = try client.groups().first { $0.id == id }?.conversationId
            } else if let recipient {
                conversation = try client.conversationId(with: try await client.resolve(recipient))
            } else {
                throw ValidationError("name the other party, or a group with --group")
            }
            guard let conversation else { return MessagePage(messages: [], nextCursor: nil) }
            let page = try client.history(conversationId: conversation, before: before, limit: limit)
            // Reading marks read: read receipts go out (unless turned off) and disappearing timers start.
            if !keepUnread {
                try await client.markRead(conversationId: conversation, attempt: .dueJobs)
            }
            return page
        }
        let output = Output(json: options.json)
        for message in page.messages {
            output.emit(message, text: Self.line(message))
        }
        if let cursor = page.nextCursor, !options.json { print("more: --before \(cursor)") }
    }

    /// One message as a line of text.
    static func line(_ message: StoredMessage) -> String {
        let who = message.outgoing ? "me" : message.authorUsername ?? String(message.authorAccountId.prefix(8))
        if message.kind == .timerChange { return "#\(message.id) \(who): \(TimerDescription.notice(message.expireTimer))" }
        if message.kind == .groupChange { return "#\(message.id) \(who): \(message.body ?? "changed the group")" }
        var text = message.deleted ? "(deleted)" : message.body ?? message.failureReason ?? ""
        if let reply = message.replyToId { text = "↪ #\(reply) \(text)" }
        if message.editedAt != nil, !message.deleted { text += " (edited)" }
        if message.attachmentCount > 0 { text += " [+\(message.attachmentCount) attachment(s)]" }
        if !message.reactions.isEmpty { text += " " + message.reactions.map(\.emoji).joined() }
        if message.expireTimer > 0 { text += " ⏱\(TimerDescription.short(message.expireTimer))" }
        return "#\(message.id) \(who) (\(message.status.rawValue)): \(text)"
    }
}
