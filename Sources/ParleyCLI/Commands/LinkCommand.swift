import ArgumentParser
import Foundation
import ParleyKit

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Make --account a new device of an existing account.",
        discussion: """
            On another machine: `parley link --server URL` prints a link code and waits; run `parley devices add CODE` on \
            the account's primary device to approve it. The account identity travels encrypted to this device's \
            one-time key, through the server, which cannot read it.
            On the same machine: `parley link --primary NAME` does both ends at once.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "The server's URL (when linking across machines).") var server: String?
    @Option(help: "A local account whose primary device approves directly (same machine).") var primary: String?
    @Option(help: "A name for the new device.") var deviceName: String?
    @Option(help: "How long to wait for the approval, in seconds.") var timeout = 600

    func validate() throws {
        guard (server == nil) != (primary == nil) else { throw ValidationError("pass either --server URL or --primary NAME") }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be 1…3600 seconds") }
    }

    func run() async throws {
        struct Linked: Encodable {
            let accountId: String
            let deviceId: UInt32
        }
        struct Invitation: Encodable { let linkCode: String }
        let output = Output(json: options.json)
        let credentials: DeviceCredentials
        if let primary {
            var primaryOptions = options
            primaryOptions.account = primary
            let newDevice = try AccountContext.open(options, server: "http://unused.invalid")
            do {
                credentials = try await AccountContext.with(primaryOptions) { client in
                    try await client.linkNewDevice(newDevice, name: DefaultDeviceName.or(deviceName))
                }
                await newDevice.shutdown()
            } catch {
                await newDevice.shutdown()
                throw error
            }
        } else {
            credentials = try await AccountContext.with(options, server: server) { client in
                let invitation = LinkInvitation.create()
                output.emit(
                    Invitation(linkCode: invitation.code),
                    text: """
                        On the primary device, run:
                          parley devices add '\(invitation.code)'
                        Waiting for approval…
                        """)
                return try await client.completeLink(invitation, deviceName: DefaultDeviceName.or(deviceName), timeout: .seconds(timeout))
            }
        }
        output.emit(
            Linked(accountId: credentials.accountId, deviceId: credentials.deviceId),
            text: "linked as device \(credentials.deviceId) of \(credentials.accountId)")
    }
}
