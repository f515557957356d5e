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

    func run() async throws {
        let settings = try await AccountContext.with(options) { client in
            try client.updateSettings { settings in
                if let readReceipts { settings.readReceipts = readReceipts == .on }
                if let typing { settings.typingIndicators = typing == .on }
                if let unidentifiedDelivery { settings.unidentifiedDelivery = unidentifiedDelivery == .on }
            }
            return try client.settings()
        }
        Output(json: options.json).emit(settings, text: "read receipts: \(settings.readReceipts ? "on" : "off")\n"
                                        + "typing indicators: \(settings.typingIndicators ? "on" : "off")\n"
                                        + "unidentified delivery: \(settings.unidentifiedDelivery ? "on" : "off")")
    }
}
