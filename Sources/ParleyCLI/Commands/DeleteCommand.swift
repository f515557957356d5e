import ArgumentParser
import ParleyKit

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a message you sent for everyone (within 24 hours): its content is erased everywhere.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Your message's local id.") var messageId: Int64

    func run() async throws {
        let report = try await AccountContext.with(options) { client in
            try client.sender.deleteForEveryone(messageId)
            return try await client.runJobs()
        }
        Output(json: options.json).emitJobs(report, text: "deleted message \(messageId) for everyone")
    }
}
