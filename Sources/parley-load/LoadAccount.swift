import Foundation
import ParleyAPI
import ParleyKit

/// A registered device of the load run. Its identity key is a fixed, well-formed Curve25519 key: the server only
/// stores it, and the load tool never sets up sessions (message contents are opaque to the server).
struct LoadAccount: Sendable {
    let credentials: DeviceCredentials
    let registrationId: UInt32

    static func register(_ api: ParleyServerClient, name: String) async throws -> LoadAccount {
        let password = DeviceCredentials.makePassword()
        let registrationId = UInt32.random(in: 1...16380)
        let identityKey = Data([0x05] + (0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let response = try await api.register(
            RegisterAccountRequest(
                username: name, identityKey: identityKey, registrationId: registrationId, password: password, deviceName: "load"))
        return LoadAccount(
            credentials: DeviceCredentials(accountId: response.accountId, deviceId: response.deviceId, password: password),
            registrationId: registrationId)
    }

    /// Registers `count` accounts, `parallel` at a time.
    static func register(_ api: ParleyServerClient, count: Int, prefix: String, parallel: Int = 16) async throws -> [LoadAccount] {
        try await withThrowingTaskGroup(of: (Int, LoadAccount).self) { group in
            var accounts = [LoadAccount?](repeating: nil, count: count)
            var next = 0
            func add() {
                let index = next
                next += 1
                group.addTask { (index, try await register(api, name: "\(prefix)-\(index)")) }
            }
            for _ in 0..<min(parallel, count) { add() }
            while let (index, account) = try await group.next() {
                accounts[index] = account
                if next < count { add() }
            }
            return accounts.compactMap { $0 }
        }
    }

    /// An opaque message (type 2) carrying `content` to this account's device, as the load runs send it.
    func message(carrying content: Data) -> SendMessagesRequest {
        SendMessagesRequest(
            messages: [
                OutgoingMessage(
                    destinationDeviceId: credentials.deviceId, destinationRegistrationId: registrationId,
                    type: 2, content: content.base64EncodedString())
            ],
            timestamp: UInt64(Date().timeIntervalSince1970 * 1000))
    }
}
