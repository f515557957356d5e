import ArgumentParser
import ParleyKit

/// `parley`: the command-line Parley client. Argument parsing and presentation only; ParleyKit does the work.
public struct ParleyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "End-to-end encrypted messaging from the command line.",
        version: ParleyVersion.current,
        subcommands: [
            RegisterCommand.self, LinkCommand.self, SendCommand.self, ReceiveCommand.self, ListenCommand.self,
            ConversationsCommand.self, HistoryCommand.self, DownloadCommand.self, SafetyNumberCommand.self, TrustCommand.self,
            ReactCommand.self, EditCommand.self, DeleteCommand.self, TimerCommand.self, TypingCommand.self, MuteCommand.self,
            PinCommand.self,
            SettingsCommand.self, GroupCommand.self, DevicesCommand.self, PushCommand.self, DaemonCommand.self, RestAPICommand.self,
            WebCommand.self,
            ContentDetectionCommand.self,
            BackupCommand.self, UsernameCommand.self,
        ])

    public init() {}
}
