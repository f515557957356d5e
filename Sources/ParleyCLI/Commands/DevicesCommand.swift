import ArgumentParser
import Foundation
import ParleyAPI
import ParleyKit

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "This account's devices.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let devices = try await AccountContext.with(options) { client in try await client.devices() }
        let output = Output(json: options.json)
        for device in devices {
            output.emit(device, text: "device \(device.deviceId)\(device.name.map { " (\($0))" } ?? "")")
        }
    }
}
