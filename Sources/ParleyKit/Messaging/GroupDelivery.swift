import Foundation
import GRDB
import ParleyAPI
import ParleyProtocol

/// Sends one ``MessageContent`` to a group with Sender Keys: encrypted once with this device's sender key, the
/// same ciphertext to every member device; before that, this device's distribution message goes 1:1 (over the
/// pairwise session) to every member device that does not have it yet. Device-list changes (409/410) are
/// repaired per member, and a new or re-installed device gets the distribution message before the group message.
struct GroupDelivery: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore
    let sessions: DeviceSessions
    let delivery: MessageDelivery
    let clock: MonotonicTimestamp

    func deliver(_ content: MessageContent, toGroup threadId: Int64, timestamp: UInt64, as credentials: DeviceCredentials) async throws {
        let sender = try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId)
        let plaintext = try content.encode()
        let (group, distributionId, distribution, ciphertext) = try await database.awaitableWrite { [store] db in
            guard let group = try GroupStore.group(threadId: threadId, db) else { throw ParleyError.invalidArgument("no group \(threadId)") }
            guard !group.left else { throw ParleyError.invalidArgument("this account is no longer a member of “\(group.title)”") }
            let distributionId = try GroupStore.currentDistribution(threadId: threadId, db)
            let context = TransactionContext(db)
            let distribution = try SenderKeyDistributionMessage(from: sender, distributionId: distributionId, store: store, context: context)
            let ciphertext = try groupEncrypt(plaintext, from: sender, distributionId: distributionId, store: store, context: context)
            return (group, distributionId, distribution.serialize(), ciphertext.serialize().base64EncodedString())
        }
        let handout = SenderKeyDistribution(groupId: group.id, distributionId: distributionId, message: distribution)
        for member in group.members where member != credentials.accountId {
            try await send(ciphertext, to: member, handout: handout, threadId: threadId, timestamp: timestamp, as: credentials)
        }
    }

    private func send(_ ciphertext: String, to member: String, handout: SenderKeyDistribution, threadId: Int64, timestamp: UInt64,
                      as credentials: DeviceCredentials) async throws {
        if try sessions.devices(of: member).isEmpty { try await sessions.establish(member, deviceIds: nil, as: credentials) }
        let distribution = handout.distributionId.uuidString.lowercased()
        _ = try await delivery.send(to: member, timestamp: timestamp, as: credentials, onStale: { stale in
            // A re-installed device has none of the sender keys its predecessor held.
            try await database.awaitableWrite { db in
                for device in stale {
                    try db.execute(sql: "DELETE FROM sender_key_shared WHERE thread_id = ? AND account_id = ? AND device_id = ?",
                                   arguments: [threadId, member, Int64(device)])
                }
            }
        }) { devices in
            let holders = try database.read { db in
                try Set(Int64.fetchAll(db, sql: "SELECT device_id FROM sender_key_shared WHERE thread_id = ? AND distribution_id = ? AND account_id = ?",
                                       arguments: [threadId, distribution, member]).map { UInt32(truncatingIfNeeded: $0) })
            }
            var devices = devices
            if devices.contains(where: { !holders.contains($0.deviceId) }) {
                try await delivery.deliver(MessageContent(senderKeyDistribution: handout), to: member, timestamp: clock.next(), as: credentials)
                // That delivery may have repaired the device list: the group message goes to the devices it reached.
                devices = try sessions.devices(of: member)
                try await database.awaitableWrite { [devices] db in
                    for device in devices {
                        try db.execute(sql: "INSERT OR IGNORE INTO sender_key_shared (thread_id, distribution_id, account_id, device_id) VALUES (?, ?, ?, ?)",
                                       arguments: [threadId, distribution, member, Int64(device.deviceId)])
                    }
                }
            }
            return devices.map {
                OutgoingMessage(destinationDeviceId: $0.deviceId, destinationRegistrationId: $0.registrationId,
                                type: CiphertextMessage.MessageType.senderKey.rawValue, content: ciphertext)
            }
        }
    }
}
