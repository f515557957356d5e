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

        /// A device as listed: the server's record and whether it is the one running this command.
        struct Listed: Encodable {
            let deviceId: UInt32
            let name: String?
            let registrationId: UInt32
            let created: UInt64
            let current: Bool
        }

        func run() async throws {
            let (devices, current) = try await AccountContext.with(options) { client in
                (try await client.devices(), try client.credentials().deviceId)
            }
            let output = Output(json: options.json)
            let dates = ISO8601DateFormatter()
            for device in devices {
                let listed = Listed(
                    deviceId: device.deviceId, name: device.name, registrationId: device.registrationId, created: device.created,
                    current: device.deviceId == current)
                let added = dates.string(from: Date(timeIntervalSince1970: Double(device.created) / 1000))
                output.emit(
                    listed,
                    text: "device \(device.deviceId)\(device.name.map { " (\($0))" } ?? ""), added \(added)"
                        + (listed.current ? "  ← this device" : ""))
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
