import ArgumentParser
import Foundation
import ParleyKit

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Add --account as a new device of another local account (its primary device).")

    @OptionGroup var options: GlobalOptions
    @Option(help: "The local account whose account this device joins.") var primary: String
    @Option(help: "A name for the new device.") var deviceName: String?

    func run() async throws {
        var primaryOptions = options
        primaryOptions.account = primary
        let newContext = try AccountContext.open(options, server: "http://unused.invalid")
        let credentials = try await AccountContext.with(primaryOptions) { client in
            try await client.accounts.linkNewDevice(database: newContext.client.database, name: deviceName)
        }
        try? await newContext.http.shutdown()
        struct Linked: Encodable { let accountId: String; let deviceId: UInt32 }
        Output(json: options.json).emit(Linked(accountId: credentials.accountId, deviceId: credentials.deviceId),
                                        text: "linked as device \(credentials.deviceId) of \(credentials.accountId)")
    }
}
