import ArgumentParser
import Foundation
import ParleyKit

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account on a server.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account name to register (3–32 letters, digits, '.', '_', '-').") var username: String
    @Option(help: "Also take a username others find you by: NICKNAME and a random number; the server keeps only its hash.")
    var nickname: String?
    @Option(help: "The server's URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "A name for this device.") var deviceName: String?
    @Option(help: "The operator's invite token, for a server that registers by invitation only.") var invite: String?

    func run() async throws {
        // Refused before the account exists: a nickname Signal's rules refuse would otherwise fail after it.
        if let nickname { try ParleyClient.checkNickname(nickname) }
        let (credentials, taken) = try await AccountContext.with(options, server: server) { client in
            let credentials = try await client.register(username: username, deviceName: deviceName, inviteToken: invite)
            guard let nickname else { return (credentials, String?.none) }
            return (credentials, try await client.setUsername(nickname: nickname).value)
        }
        struct Registered: Encodable {
            let accountId: String
            let deviceId: UInt32
            let username: String
            /// The username taken with `--nickname` (`nickname.NN`).
            let publicUsername: String?
        }
        Output(json: options.json).emit(
            Registered(accountId: credentials.accountId, deviceId: credentials.deviceId, username: username, publicUsername: taken),
            text: "registered \(username) as \(credentials.accountId) (device \(credentials.deviceId))"
                + (taken.map { "\nyour username is \($0)" } ?? ""))
    }
}
