import ArgumentParser
import Foundation
import ParleyKit

struct ConversationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "conversations", abstract: "The inbox: one line per conversation.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let conversations = try await AccountContext.with(options) { client in try client.conversations() }
        let output = Output(json: options.json)
        for conversation in conversations {
            output.emit(
                conversation,
                text: (conversation.isPinned ? "📌 " : "")
                    + (conversation.groupId != nil
                        ? "group “\(conversation.title ?? "")”"
                        : conversation.username ?? conversation.accountId)
                    + (conversation.unreadCount > 0 ? " (\(conversation.unreadCount) unread)" : "")
                    + (conversation.mutedUntil > UInt64(Date().timeIntervalSince1970 * 1000) ? " [muted]" : "")
                    + (conversation.expireTimer > 0 ? " [⏱ \(TimerDescription.short(conversation.expireTimer))]" : "")
                    + ": \(conversation.lastMessagePreview ?? "")")
        }
    }
}
