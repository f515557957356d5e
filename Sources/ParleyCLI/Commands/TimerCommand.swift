import ArgumentParser
import ParleyKit

struct TimerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Set a conversation's disappearing-message timer for both sides: messages vanish that long after they are read.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id.") var recipient: String
    @Argument(help: "30s, 5m, 1h, 1d, 1w, a number of seconds, or off.") var duration: String

    func run() async throws {
        guard let seconds = TimerDescription.parse(duration) else {
            throw ValidationError("a duration like 30s, 5m, 1h, 1d, 1w, or off")
        }
        let report = try await AccountContext.with(options) { client in
            try await client.setExpireTimer(seconds, with: recipient).jobs
        }
        Output(json: options.json).emitJobs(report, text: TimerDescription.notice(seconds))
    }
}
