import ArgumentParser
import ParleyKit

struct TypingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typing", abstract: "Tell someone you are typing (shown for 10 seconds unless renewed), or that you stopped.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id.") var recipient: String
    @Flag(help: "Say you stopped typing.") var stop = false

    func run() async throws {
        let sent = try await AccountContext.with(options) { client -> Bool in
            guard try client.settings().typingIndicators else { return false }
            return try await client.sendTyping(stop ? .stopped : .started, to: try await client.resolve(recipient))
        }
        struct Result: Encodable { let sent: Bool }
        Output(json: options.json).emit(Result(sent: sent), text: sent ? "typing \(stop ? "stopped" : "started")"
                                        : "not sent (typing indicators are off, or there is no session yet)")
    }
}
