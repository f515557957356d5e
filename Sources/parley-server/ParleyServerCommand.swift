import ArgumentParser
import ParleyAPI

/// `parley-server`: runs the server (`serve`, the default) or talks to a running one as its operator (`dcd`, `invites`,
/// `accounts`).
@main
struct ParleyServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-server",
        abstract: "The Parley messaging server: accounts, key directory, mailboxes, WebSocket delivery, attachments, hash banks.",
        version: ParleyVersion.current,
        subcommands: [ServeCommand.self, ContentHashCommand.self, InvitesCommand.self, AccountsCommand.self, CertificatesCommand.self],
        defaultSubcommand: ServeCommand.self)
}
