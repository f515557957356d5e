import ArgumentParser
import ParleyKit

struct ReactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "react", abstract: "React to a message with an emoji (replaces your earlier reaction), or withdraw it.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The message: its local id (from `parley history`) or AUTHOR:TIMESTAMP (username or `me`, and the sender's timestamp).")
    var message: MessageReference
    @Argument(help: "One emoji.") var emoji: String = "👍"
    @Flag(help: "Withdraw your reaction instead.") var remove = false

    func run() async throws {
        let report = try await AccountContext.with(options) { client in
            try await client.react(emoji, to: try await message.resolve(in: client), remove: remove).jobs
        }
        Output(json: options.json).emitJobs(report, text: remove ? "reaction withdrawn" : "reacted \(emoji)")
    }
}
