import ArgumentParser
import Foundation
import ParleyKit

struct PinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Pin a conversation to the top of the inbox, or unpin it.",
        discussion: "At most \(ParleyClient.maximumPinnedConversations) conversations are pinned at once; the pins stay on this device.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id (omit it with --group).") var recipient: String?
    @Option(help: "Pin this group (its id from `parley group list`) instead.") var group: String?
    @Flag(help: "Unpin.") var off = false

    func validate() throws {
        guard (recipient == nil) != (group == nil) else { throw ValidationError("name one person, or one group with --group") }
    }

    func run() async throws {
        try await AccountContext.with(options) { client in
            let conversation: Int64?
            if let group {
                conversation = try client.group(id: try GroupCommand.id(group))?.conversationId
            } else {
                conversation = try client.conversationId(with: try await client.resolve(recipient ?? ""))
            }
            guard let conversation else {
                throw ParleyError.invalidArgument("no conversation with \(group.map { "group \($0)" } ?? recipient ?? "")")
            }
            try client.pin(conversationId: conversation, !off)
        }
        struct Result: Encodable { let pinned: Bool }
        Output(json: options.json).emit(Result(pinned: !off), text: off ? "unpinned" : "pinned")
    }
}
