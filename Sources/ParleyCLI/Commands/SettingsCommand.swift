import ArgumentParser
import ParleyKit

struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings", abstract: "Show or change this account's settings.")

    enum Switch: String, ExpressibleByArgument { case on, off }

    @OptionGroup var options: GlobalOptions
    @Option(help: "Send read receipts: on or off.") var readReceipts: Switch?
    @Option(help: "Send sealed (the server is not told the sender) when the recipient's profile key is known: on or off.")
    var unidentifiedDelivery: Switch?
    @Option(help: "Send typing indicators: on or off.") var typing: Switch?
    @Option(help: "Pin the sealed-sender trust root: the base64 public key `parley-server certificates show` prints.")
    var trustRoot: String?

    func run() async throws {
        let settings = try await AccountContext.with(options) { client in
            if let trustRoot { try client.pinTrustRoot(base64: trustRoot) }
            try client.updateSettings { settings in
                if let readReceipts { settings.readReceipts = readReceipts == .on }
                if let typing { settings.typingIndicators = typing == .on }
                if let unidentifiedDelivery { settings.unidentifiedDelivery = unidentifiedDelivery == .on }
            }
            return try client.settings()
        }
        Output(json: options.json).emit(
            settings,
            text: "read receipts: \(settings.readReceipts ? "on" : "off")\n"
                + "typing indicators: \(settings.typingIndicators ? "on" : "off")\n"
                + "unidentified delivery: \(settings.unidentifiedDelivery ? "on" : "off")\n"
                + "sealed-sender trust root: \(settings.sealedSenderTrustRoot ?? "(none yet)")"
                + (settings.trustRootPinned ? " (pinned)" : ""))
    }
}
