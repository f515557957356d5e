import ArgumentParser
import Foundation
import ParleyKit

struct SafetyNumberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "safety-number", abstract: "The safety number to compare with a contact.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The contact: a username or an account id.") var recipient: String

    func run() async throws {
        let number = try await AccountContext.with(options) { client in
            try client.safetyNumber(with: try await client.resolve(recipient))
        }
        struct Number: Encodable {
            let safetyNumber: String
            let groups: [String]
        }
        let groups = number.split(whereSeparator: \.isWhitespace).map(String.init)
        Output(json: options.json).emit(Number(safetyNumber: groups.joined(separator: " "), groups: groups), text: number)
    }
}
