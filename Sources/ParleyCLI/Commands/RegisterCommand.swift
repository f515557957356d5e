import ArgumentParser
import Foundation
import ParleyKit

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account on a server.")

    @OptionGroup var options: GlobalOptions
    @Argument(
        help: "A plain account name the server stores and others look up as it is (3–32 letters, digits, '.', '_', '-'); prefer --nickname."
    )
    var username: String?
    @Option(
        help:
            "Register without a plain name, going by a username: NICKNAME and a number (random, or --discriminator); the server keeps only its hash."
    )
    var nickname: String?
    @Option(help: "With --nickname: the number after the dot (two or more digits).") var discriminator: String?
    @Option(help: "The server's URL, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "A name for this device.") var deviceName: String?
    @Option(help: "The operator's invite token, for a server that registers by invitation only.") var invite: String?

    func validate() throws {
        guard (username == nil) != (nickname == nil) else {
            throw ValidationError("give either --nickname (a username the server never reads) or a plain account name, not both")
        }
        if discriminator != nil, nickname == nil { throw ValidationError("--discriminator goes with --nickname") }
    }

    func run() async throws {
        let (credentials, taken) = try await AccountContext.with(options, server: server) { client in
            if let nickname {
                let (credentials, username) = try await client.register(
                    nickname: nickname, discriminator: discriminator, deviceName: DefaultDeviceName.or(deviceName), inviteToken: invite)
                return (credentials, String?.some(username.value))
            }
            let credentials = try await client.register(
                username: username ?? "", deviceName: DefaultDeviceName.or(deviceName), inviteToken: invite)
            return (credentials, String?.none)
        }
        let name = taken ?? username ?? ""
        struct Registered: Encodable {
            let accountId: String
            let deviceId: UInt32
            /// What the account goes by: its username with `--nickname`, else its plain name.
            let username: String
            /// The username taken with `--nickname` (`nickname.NN`).
            let publicUsername: String?
        }
        Output(json: options.json).emit(
            Registered(accountId: credentials.accountId, deviceId: credentials.deviceId, username: name, publicUsername: taken),
            text: "registered \(name) as \(credentials.accountId) (device \(credentials.deviceId))"
                + (taken.map { "\nyour username is \($0): the server keeps only its hash" } ?? ""))
    }
}
