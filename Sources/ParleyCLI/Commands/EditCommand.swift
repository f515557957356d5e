import ArgumentParser
import ParleyKit

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Replace the text of a message you sent (within 24 hours); the earlier text is kept.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The message: its local id (from `parley history`) or AUTHOR:TIMESTAMP (username or `me`, and the sender's timestamp).")
    var message: MessageReference
    @Argument(help: "The new text.") var text: String
    @Option(
        name: .customLong("mention"),
        help:
            "Mention this person (a username or account id) where the new text says @NAME (repeatable); an edit's mentions replace the message's."
    )
    var mentioned: [String] = []

    func run() async throws {
        let (messageId, report) = try await AccountContext.with(options) { client in
            let messageId = try await message.resolve(in: client)
            let mentions = try await MentionTags.mentions(of: mentioned, in: text, client: client)
            return (messageId, try await client.edit(messageId, body: text, mentions: mentions).jobs)
        }
        Output(json: options.json).emitJobs(report, text: "edited message \(messageId)")
    }
}
