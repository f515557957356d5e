import ArgumentParser

/// `parley`: the command-line Parley client. Argument parsing and presentation only; ParleyKit does the work.
public struct ParleyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "End-to-end encrypted messaging from the command line.",
        subcommands: [
            RegisterCommand.self, LinkCommand.self, SendCommand.self, ReceiveCommand.self, ListenCommand.self,
            ConversationsCommand.self, HistoryCommand.self, DownloadCommand.self, SafetyNumberCommand.self, TrustCommand.self,
            DevicesCommand.self, DaemonCommand.self, ContentDetectionCommand.self,
        ])

    public init() {}
}
