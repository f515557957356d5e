import ArgumentParser
import Foundation
import ParleyKit

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "PIN-protected backup of this account's identity on the server.",
        discussion: """
            The PIN comes from PARLEY_PIN or, in a terminal, from a prompt that does not echo; it never leaves this \
            machine. It must be at least 4 characters; any characters count. The server limits guesses to 5 per 5 \
            minutes and deletes the backup after 10 wrong PINs in a row (its operator may choose another number).
            """,
        subcommands: [Create.self, Restore.self, Status.self, Delete.self], defaultSubcommand: Status.self)

    /// Backups of `client`'s account.
    static func backups(of client: ParleyClient) -> KeyBackup {
        client.backups
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "On the primary device: store a backup under a PIN (replacing any other).")

        @OptionGroup var options: GlobalOptions
        @Option(help: "The PIN stretch: argon2id, or pbkdf2 (PBKDF2-SHA256 at seed 004's 100,000 iterations, after the oblivious PRF).")
        var kdf = "argon2id"

        func validate() throws {
            guard ["argon2id", "pbkdf2"].contains(kdf) else { throw ValidationError("--kdf is argon2id or pbkdf2") }
        }

        func run() async throws {
            let pin = try PINPrompt.read(confirm: true)
            try await AccountContext.with(options) { client in
                try await BackupCommand.backups(of: client).create(pin: pin, kdf: kdf == "pbkdf2" ? .pbkdf2SHA256 : .argon2id)
            }
            struct Created: Encodable {
                let created = true
                let kdf: String
            }
            Output(json: options.json).emit(
                Created(kdf: kdf), text: "backup stored (\(kdf)): restore it on a new machine with `parley backup restore`")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "On a new machine: become the account's primary device again from its backup and the PIN.",
            discussion: """
                --account must name a local account that does not exist yet. Each attempt is one of the server's \
                limited guesses. Contacts' sessions with the old installation are rebuilt on their next message; the \
                old installation, if it still runs, stops working.
                """)

        @OptionGroup var options: GlobalOptions
        @Option(help: "The server's URL, e.g. http://127.0.0.1:8080.") var server: String
        @Option(help: "The account's username.") var username: String

        func run() async throws {
            let pin = try PINPrompt.read(confirm: false)
            let credentials = try await AccountContext.with(options, server: server) { client in
                try await BackupCommand.backups(of: client).restore(username: username, pin: pin)
            }
            struct Restored: Encodable {
                let accountId: String
                let deviceId: UInt32
                let username: String
            }
            Output(json: options.json).emit(
                Restored(accountId: credentials.accountId, deviceId: credentials.deviceId, username: username),
                text: "restored \(username) (\(credentials.accountId)) as device \(credentials.deviceId)")
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Whether the server holds a backup.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let (status, username) = try await AccountContext.with(options) { client in
                (try await BackupCommand.backups(of: client).status(), try client.username())
            }
            var text: String
            if status.exists, let created = status.created {
                let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(created) / 1000))
                text = "backup from \(date) (\(status.kdf?.algorithm.rawValue ?? "?")), \(status.failures ?? 0) wrong guesses since"
                if status.kdf?.effectivePINInput == .registeredName {
                    text += "\nmade under your plain account name, which the server keeps for it: restore it by that name"
                    if let username {
                        text += ", or run 'parley backup create' to keep it under your username \(username) and let the name go"
                    }
                }
            } else {
                text = "no backup"
            }
            Output(json: options.json).emit(status, text: text)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "On the primary device: delete the backup.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await AccountContext.with(options) { client in try await BackupCommand.backups(of: client).delete() }
            struct Deleted: Encodable { let deleted = true }
            Output(json: options.json).emit(Deleted(), text: "backup deleted")
        }
    }
}
