import ArgumentParser
import Foundation
import ParleyKit

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listen", abstract: "Stay connected and print messages as they arrive.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let output = Output(json: options.json)
        // Each outcome is printed before the next envelope is read: a slow reader of the output slows receiving and
        // loses nothing (``ParleyClient/events()`` would keep only the newest events for it).
        try await AccountContext.with(options) { client in
            try client.claimReceiving()
            try await client.listen { outcome in Self.show(outcome, of: client, on: output) }
        }
    }

    /// One outcome as a line: a message stored, someone typing (other outcomes are not shown).
    static func show(_ outcome: ReceiveOutcome, of client: ParleyClient, on output: Output) {
        switch outcome {
        case .stored(let id):
            guard let message = try? client.message(id: id) else { return }
            output.emit(message, text: HistoryCommand.line(message))
        case .typing(let accountId, _, let action, let groupId):
            struct Typing: Encodable {
                let kind = "typing"
                let typing: String
                let accountId: String
                let username: String?
                let groupId: String?
            }
            let username = (try? client.usernames(of: [accountId]))?[accountId]
            let who = username ?? String(accountId.prefix(8))
            let place = groupId.flatMap { try? client.group(id: $0) }.map { " in “\($0.title)”" } ?? ""
            let text = action == .started ? "\(who) is typing\(place)…" : "\(who) stopped typing\(place)"
            output.emit(
                Typing(
                    typing: action.rawValue, accountId: accountId, username: username,
                    groupId: groupId.map { GroupID($0).description }), text: text)
        default:
            break
        }
    }
}
