import ArgumentParser
import ParleyKit

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a message you sent for everyone (within 24 hours): its content is erased everywhere.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The message: its local id (from `parley history`) or AUTHOR:TIMESTAMP (username or `me`, and the sender's timestamp).")
    var message: MessageReference

    func run() async throws {
        let (messageId, report) = try await AccountContext.with(options) { client in
            let messageId = try await message.resolve(in: client)
            return (messageId, try await client.deleteForEveryone(messageId).jobs)
        }
        Output(json: options.json).emitJobs(report, text: "deleted message \(messageId) for everyone")
    }
}
