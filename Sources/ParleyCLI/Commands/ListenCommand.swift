import ArgumentParser
import Foundation
import ParleyKit

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "listen", abstract: "Stay connected and print messages as they arrive.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let output = Output(json: options.json)
        try await AccountContext.with(options) { client in
            try await client.listen { outcome in
                switch outcome {
                case .stored(let id):
                    guard let message = try? client.message(id: id) else { return }
                    output.emit(message, text: HistoryCommand.line(message))
                case .typing(let accountId, _, let action):
                    struct Typing: Encodable { let kind = "typing"; let typing: String; let accountId: String; let username: String? }
                    let username = (try? client.usernames(of: [accountId]))?[accountId]
                    output.emit(Typing(typing: action.rawValue, accountId: accountId, username: username),
                                text: "\(username ?? String(accountId.prefix(8))) \(action == .started ? "is typing…" : "stopped typing")")
                default:
                    break
                }
            }
        }
    }
}
