import ArgumentParser
import ParleyKit

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Replace the text of a message you sent (within 24 hours); the earlier text is kept.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Your message's local id.") var messageId: Int64
    @Argument(help: "The new text.") var text: String

    func run() async throws {
        let report = try await AccountContext.with(options) { client in
            try client.sender.edit(messageId, body: text)
            return try await client.runJobs()
        }
        Output(json: options.json).emitJobs(report, text: "edited message \(messageId)")
    }
}
