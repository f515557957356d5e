import ArgumentParser
import ParleyAPI

/// `parley-server`: runs the server (`serve`, the default) or talks to a running one as its operator (`dcd`, `invites`,
/// `accounts`, `certificates`).
@main
struct ParleyServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-server",
        abstract: "The Parley messaging server: accounts, key directory, mailboxes, WebSocket delivery, attachments, hash banks.",
        version: ParleyVersion.current,
        subcommands: [
            ServeCommand.self, ContentDetectionCommand.self, InvitesCommand.self, AccountsCommand.self, CertificatesCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)

    /// As ArgumentParser runs it, except that `parley-server --help` shows the flags of `serve` — what running the
    /// server takes — and then the operator's other commands.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments == ["--help"] || arguments == ["-h"] else { return await main(arguments) }
        print(configuration.abstract + "\n")
        print(helpMessage(for: ServeCommand.self))
        print(
            """

            OTHER COMMANDS (as the operator of a running server):
              dcd           import hashes into a bank, check an import
              invites       make registration invites
              accounts      list, disable, enable or delete accounts
              certificates  show the sealed-sender trust root, rotate the server certificate
              See 'parley-server help <command>' for each.
            """)
    }
}
