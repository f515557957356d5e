import ArgumentParser
import Foundation
import ParleyKit

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "A conversation's messages, newest first.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id.") var recipient: String
    @Option(help: "Show messages older than this message id (the cursor the previous page printed).") var before: Int64?
    @Option(help: "Messages per page.") var limit = 20

    func run() async throws {
        let page = try await AccountContext.with(options) { client -> MessagePage in
            let accountId = try await AccountContext.resolve(recipient, with: client)
            guard let thread = try client.threadId(with: accountId) else { return MessagePage(messages: [], nextCursor: nil) }
            return try client.history(threadId: thread, before: before, limit: limit)
        }
        let output = Output(json: options.json)
        for message in page.messages {
            let who = message.outgoing ? "me" : String(message.authorAccountId.prefix(8))
            let extra = message.attachmentCount > 0 ? " [+\(message.attachmentCount) attachment(s)]" : ""
            output.emit(message, text: "#\(message.id) \(who) (\(message.status.rawValue)): \(message.body ?? message.failureReason ?? "")\(extra)")
        }
        if let cursor = page.nextCursor, !options.json { print("more: --before \(cursor)") }
    }
}
