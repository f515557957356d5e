import ArgumentParser
import Foundation
import ParleyKit

/// `parley username`: this account's username (`nickname.NN`; the server keeps only its hash), its link, and finding
/// others by theirs.
struct UsernameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "username",
        abstract: "Your username (nickname.NN) and username link; the server sees only a hash and an encrypted link.",
        discussion: """
            Others send to you by your full username (`parley send alice.42 hi`) or your link; anyone with either can find \
            your account, so share them as you would a phone number.
            """,
        subcommands: [Show.self, Set.self, Link.self, Lookup.self, Delete.self], defaultSubcommand: Show.self)

    struct Result: Encodable {
        let username: String?
        var link: String?
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "This account's username, as this device set it.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let username = try await AccountContext.with(options) { client in try client.username() }
            Output(json: options.json).emit(Result(username: username), text: username ?? "no username: parley username set NICKNAME")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Take a username: NICKNAME and a number (random unless --discriminator); prints it whole.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "3 to 32 letters, digits and '_', not starting with a digit.") var nickname: String
        @Option(help: "The number after the dot (two digits or more, e.g. 42); a free random one when omitted.") var discriminator: String?

        func run() async throws {
            let username = try await AccountContext.with(options) { client in
                try await client.setUsername(nickname: nickname, discriminator: discriminator).value
            }
            Output(json: options.json).emit(Result(username: username), text: username)
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "Print your username link (--reset: a new one; the old stops working).")

        @OptionGroup var options: GlobalOptions
        @Flag(help: "Make a new link; the old one stops working.") var reset = false

        func run() async throws {
            let (username, link) = try await AccountContext.with(options) { client in
                let link = try await client.usernameLink(reset: reset)
                return (try client.username(), link.description)
            }
            Output(json: options.json).emit(Result(username: username, link: link), text: link)
        }
    }

    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lookup", abstract: "The account a username (nickname.NN) or username link names.")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "A full username (alice.42) or a parley://username/ link.") var name: String

        func run() async throws {
            struct Found: Encodable {
                let username: String
                let accountId: String
            }
            let found = try await AccountContext.with(options) { client in
                guard let account = try await client.findAccount(named: name) else {
                    throw ParleyError.invalidArgument("no account has the username \(name)")
                }
                return Found(username: account.username ?? name, accountId: account.accountId)
            }
            Output(json: options.json).emit(found, text: "\(found.username) \(found.accountId)")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Give up your username and its link (others can no longer find you by them).")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AccountContext.with(options) { client in try await client.deleteUsername() }
            Output(json: options.json).emit(Result(username: nil), text: "username deleted")
        }
    }
}
