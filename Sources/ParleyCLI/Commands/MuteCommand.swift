import ArgumentParser
import Foundation
import ParleyKit

struct MuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mute", abstract: "Mute a conversation's notifications, or unmute it.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The other party: a username or an account id.") var recipient: String
    @Option(name: .customLong("for"), help: "How long: 30m, 8h, 1w … (default: until unmuted).") var duration: String?
    @Flag(help: "Unmute.") var off = false

    func run() async throws {
        let seconds = try duration.map { text -> UInt32 in
            guard let seconds = TimerDescription.parse(text), seconds > 0 else { throw ValidationError("a duration like 30m, 8h or 1w") }
            return seconds
        }
        let until: UInt64 = off ? 0 : seconds.map { UInt64(Date().timeIntervalSince1970 * 1000) + UInt64($0) * 1000 } ?? UInt64(Int64.max)
        try await AccountContext.with(options) { client in
            let accountId = try await client.resolve(recipient)
            guard let conversation = try client.conversationId(with: accountId) else {
                throw ParleyError.invalidArgument("no conversation with \(recipient)")
            }
            try client.mute(conversationId: conversation, until: until)
        }
        struct Result: Encodable { let mutedUntil: UInt64 }
        Output(json: options.json).emit(
            Result(mutedUntil: until), text: off ? "unmuted" : seconds.map { "muted for \(TimerDescription.short($0))" } ?? "muted")
    }
}
