import ArgumentParser
import ParleyKit

struct TypingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typing",
        abstract: "Tell someone, or a group, that you are typing (shown for 10 seconds unless renewed), or that you stopped.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id (none with --group).") var recipient: String?
    @Option(help: "Tell this group's members instead (its id from `parley group list`).") var group: String?
    @Flag(help: "Say you stopped typing.") var stop = false

    func validate() throws {
        guard (recipient == nil) != (group == nil) else { throw ValidationError("name either a recipient or a --group") }
    }

    func run() async throws {
        let action: TypingAction = stop ? .stopped : .started
        let reached = try await AccountContext.with(options) { client -> [String]? in
            guard try client.settings().typingIndicators else { return nil }
            if let group { return try await client.sendTyping(action, toGroup: try GroupCommand.id(group)) }
            let accountId = try await client.resolve(recipient ?? "")
            return try await client.sendTyping(action, to: accountId) ? [accountId] : []
        }
        let sent = !(reached ?? []).isEmpty
        struct Result: Encodable {
            let sent: Bool
            let reached: [String]
        }
        let text =
            if let reached, group != nil {
                "typing \(stop ? "stopped" : "started") for \(reached.count) member\(reached.count == 1 ? "" : "s")"
            } else if sent {
                "typing \(stop ? "stopped" : "started")"
            } else {
                "not sent (typing indicators are off, or there is no session yet)"
            }
        Output(json: options.json).emit(Result(sent: sent, reached: reached ?? []), text: text)
    }
}
