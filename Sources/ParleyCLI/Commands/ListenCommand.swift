import ArgumentParser
import Foundation
import ParleyKit

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listen", abstract: "Stay connected and print messages as they arrive.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let output = Output(json: options.json)
        try await AccountContext.with(options) { client in
            // Subscribed before the socket opens: nothing it receives is missed.
            let events = client.events()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.listen() }
                group.addTask {
                    for await event in events { Self.show(event, of: client, on: output) }
                }
                // `listen` ends only by failing or being cancelled; the event loop ends with it.
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// One event as a line: a message stored, someone typing (other events are not shown).
    static func show(_ event: ClientEvent, of client: ParleyClient, on output: Output) {
        guard case .received(let outcome) = event else { return }
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
