import ArgumentParser
import Foundation
import ParleyAPI
import ParleyOperatorClient

/// `parley-server invites create`: registration invites for a server started with `--registration token`.
struct InvitesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invites", abstract: "Make registration invites on a running server (operator).", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a new invite token (shown once; the server keeps only its hash).")

        @OptionGroup var connection: OperatorConnection
        @Option(help: "Registrations it allows (1…10000).") var uses = 1
        @Option(help: "Hours until it expires (1…8760).") var expiresInHours = 168
        @Flag(help: "Print the invite as JSON.") var json = false

        func run() async throws {
            let invite = try await connection.with { server in
                try await server.createInvite(CreateInviteRequest(uses: uses, expiresInHours: expiresInHours))
            }
            if json {
                print(String(decoding: try JSONEncoder().encode(invite), as: UTF8.self))
            } else {
                let expiry = Date(timeIntervalSince1970: Double(invite.expiresAt) / 1000)
                print(invite.token)
                FileHandle.standardError.write(
                    Data(
                        "\(invite.uses) registration\(invite.uses == 1 ? "" : "s"), until \(expiry); new users run: parley register NAME --server URL --invite \(invite.token)\n"
                            .utf8))
            }
        }
    }
}

/// `parley-server accounts list|disable|enable|delete`: the operator's view of a running server's accounts.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List, disable, enable or delete accounts on a running server (operator).",
        subcommands: [List.self, Disable.self, Enable.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every account: id, username, devices, created, disabled.")
        @OptionGroup var connection: OperatorConnection
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            try await connection.with { server in
                var after: String?
                repeat {
                    let page = try await server.accounts(after: after, limit: 500)
                    for account in page.accounts {
                        if json {
                            print(String(decoding: try JSONEncoder().encode(account), as: UTF8.self))
                        } else {
                            let created = Date(timeIntervalSince1970: Double(account.created) / 1000)
                            print(
                                "\(account.accountId)  \(account.username ?? "(no plain name)")  \(account.devices) device\(account.devices == 1 ? "" : "s")  "
                                    + "created \(created)\(account.disabled ? "  DISABLED" : "")")
                        }
                    }
                    after = page.next
                } while after != nil
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop an account's devices from authenticating (their sockets close).")
        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The account id.") var account: String
        func run() async throws { try await AccountsCommand.setDisabled(true, account: account, connection: connection) }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a disabled account's devices authenticate again.")
        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The account id.") var account: String
        func run() async throws { try await AccountsCommand.setDisabled(false, account: account, connection: connection) }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account with its devices, keys, mailboxes and PIN backup; its username becomes free.")
        @OptionGroup var connection: OperatorConnection
        @Argument(help: "The account id.") var account: String

        func run() async throws {
            try await connection.with { server in try await server.deleteAccount(account) }
            print("deleted \(account)")
        }
    }

    static func setDisabled(_ disabled: Bool, account: String, connection: OperatorConnection) async throws {
        try await connection.with { server in try await server.setAccountDisabled(disabled, accountId: account) }
        print("\(disabled ? "disabled" : "enabled") \(account)")
    }
}
