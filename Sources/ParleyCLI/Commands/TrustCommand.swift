import ArgumentParser
import Foundation
import ParleyKit

struct TrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust", abstract: "Accept a contact's new safety number so sending works again.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The contact: a username or an account id.") var recipient: String

    func run() async throws {
        let accountId = try await AccountContext.with(options) { client in
            let accountId = try await client.resolve(recipient)
            try client.acceptIdentity(of: accountId)
            return accountId
        }
        struct Trusted: Encodable { let accountId: String }
        Output(json: options.json).emit(Trusted(accountId: accountId), text: "trusted the current identity of \(recipient)")
    }
}
