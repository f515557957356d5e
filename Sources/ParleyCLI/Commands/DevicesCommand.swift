import ArgumentParser
import Foundation
import ParleyKit

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "This account's devices: list them, approve a new one, remove one.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the account's devices.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let devices = try await AccountContext.with(options) { client in try await client.devices() }
            let output = Output(json: options.json)
            for device in devices {
                output.emit(device, text: "device \(device.deviceId)\(device.name.map { " (\($0))" } ?? "")")
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "On the primary device: approve the link code a new device shows (`parley link` on that machine).")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The link code, parley://link?address=…&key=…") var code: String

        func run() async throws {
            try await AccountContext.with(options) { client in
                try await client.approveLink(try LinkInvitation(code: code))
            }
            struct Approved: Encodable { let approved = true }
            Output(json: options.json).emit(Approved(), text: "approved: the new device finishes linking on its own")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a linked device (not the primary, 1).")

        @OptionGroup var options: GlobalOptions
        @Argument(help: "The device id.") var deviceId: UInt32

        func run() async throws {
            try await AccountContext.with(options) { client in try await client.removeDevice(deviceId) }
            struct Removed: Encodable { let removed: UInt32 }
            Output(json: options.json).emit(Removed(removed: deviceId), text: "removed device \(deviceId)")
        }
    }
}
