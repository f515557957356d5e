import Foundation
import ParleyAPI
import ParleyProtocol

/// Sends one ``MessageContent`` to a group with Sender Keys: encrypted once with this device's sender key, the
/// same ciphertext to every member device; before that, this device's distribution message goes 1:1 (over the
/// pairwise session) to every member device that does not have it yet.
///
/// When every member's access key is known, the group message is one sealed sender v2 request for all member devices
/// (`PUT /v1/messages/multi_recipient`): the server learns neither the sender nor that the copies are one message from
/// one account. Otherwise — or when the server refuses the combined key — each member gets its copy in a request of its
/// own (sealed where that member's key is known). Device-list changes (409/410) are repaired per member, and a new or
/// re-installed device gets the distribution message before the group message. A member whose account is gone (the
/// server knows no such account, or it has no device with keys) is left out; the others still get the message.
struct GroupDelivery: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore
    let sessions: DeviceSessions
    let delivery: MessageDelivery
    let unidentified: UnidentifiedDelivery
    let clock: MonotonicTimestamp

    /// A group message on its way: what every member device receives and what the send log keeps.
    private struct Outgoing: Sendable {
        let group: StoredGroup
        let handout: SenderKeyDistribution
        /// The sender-key message.
        let ciphertext: Data
        /// The encoded content it encrypts (for the send log).
        let plaintext: [UInt8]
        let timestamp: UInt64
    }

    func deliver(_ content: MessageContent, toGroup conversationId: Int64, timestamp: UInt64, as credentials: DeviceCredentials)
        async throws
    {
        let sender = try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId)
        let outgoing = try await database.awaitableWrite { [store] db in
            guard let group = try ConversationsTable.group(conversationId: conversationId, db) else {
                throw ParleyError.invalidArgument("no group \(conversationId)")
            }
            guard !group.left else { throw ParleyError.invalidArgument("this account is no longer a member of “\(group.title)”") }
            let plaintext = try content.sharing(
                try AccountManager.storedProfileKey(db), username: try SettingsTable.value(SettingsTable.username, db)
            ).encode()
            let distributionId = try ConversationsTable.currentDistribution(conversationId: conversationId, db)
            let context = TransactionContext(db)
            let distribution = try SenderKeyDistributionMessage(
                from: sender, distributionId: distributionId, store: store, context: context)
            let ciphertext = try groupEncrypt(plaintext, from: sender, distributionId: distributionId, store: store, context: context)
            return Outgoing(
                group: group,
                handout: SenderKeyDistribution(
                    groupId: group.id, distributionId: distributionId,
                    message: distribution.serialize()),
                ciphertext: ciphertext.serialize(), plaintext: plaintext, timestamp: timestamp)
        }
        let members = outgoing.group.members.filter { $0 != credentials.accountId }
        if try await sendSealed(outgoing, to: members, as: credentials) { return }
        var rateLimited: ParleyError?
        for member in members {
            do {
                try await send(outgoing, to: member, as: credentials)
            } catch let error as ParleyError where error.namesNoAccount {
                continue  // the member's account is gone: the other members still get the message
            } catch let error as ParleyError where error.isRateLimited {
                // This member's copy waits for the job's retry (the sends that went out answer it again from their
                // idempotency keys); the other members get theirs now.
                rateLimited = rateLimited ?? error
            }
        }
        if let rateLimited { throw rateLimited }
    }

    /// Hands this device's sender key for the group `conversationId` to every device of `member` again (a device that asked
    /// for a resend may have lost it).
    func handOutAgain(toGroup conversationId: Int64, member: String, as credentials: DeviceCredentials) async throws {
        let sender = try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId)
        let handout = try await database.awaitableWrite { [store] db -> SenderKeyDistribution? in
            guard let group = try ConversationsTable.group(conversationId: conversationId, db), !group.left, group.members.contains(member)
            else {
                return nil
            }
            let distributionId = try ConversationsTable.currentDistribution(conversationId: conversationId, db)
            try SenderKeySharesTable.forget(conversationId: conversationId, member: member, db)
            let distribution = try SenderKeyDistributionMessage(
                from: sender, distributionId: distributionId, store: store,
                context: TransactionContext(db))
            return SenderKeyDistribution(groupId: group.id, distributionId: distributionId, message: distribution.serialize())
        }
        guard let handout else { return }
        try await handOut(handout, to: member, conversationId: conversationId, as: credentials)
    }

    /// One sealed sender v2 request for every member device. Returns `false`, having sent nothing, when some member's
    /// access key is unknown, no sender certificate is at hand, or the server refuses the combined key.
    private func sendSealed(_ outgoing: Outgoing, to members: [String], as credentials: DeviceCredentials) async throws -> Bool {
        guard !members.isEmpty else { return true }
        let keys = try database.read { db in try UnidentifiedDelivery.accessKeys(for: members, db) }
        guard !keys.contains(nil), let certificate = try await unidentified.certificate() else { return false }
        // The server checks the XOR of the recipients' keys (as Signal's server does).
        let combined = keys.compactMap { $0 }.reduce(Data(count: ProfileKey.accessKeyLength)) { Data(zip($0, $1).map { $0 ^ $1 }) }
        let ownDevice = DeviceAddress(accountId: credentials.accountId, deviceId: credentials.deviceId)
        for _ in 0...MessageDelivery.maximumRepairs {
            var recipients: [ProtocolAddress] = []
            for member in members {
                do {
                    try await handOut(outgoing.handout, to: member, conversationId: outgoing.group.conversationId, as: credentials)
                } catch let error as ParleyError where error.namesNoAccount || error.isRateLimited {
                    // A member's account is gone, or sends to it are turned away for now: the member-by-member path
                    // leaves it out, or lets its copy alone wait for the retry.
                    return false
                }
                recipients += try sessions.devices(of: member).map { try ProtocolAddress(name: member, deviceId: $0.deviceId) }
            }
            // A device id the format cannot name (past 127, as servers before the lowest-free rule handed out): the
            // member-by-member path carries any.
            guard recipients.allSatisfy({ (1...127).contains($0.deviceId) }) else { return false }
            let message: Data
            do {
                message = try database.read { [store] db in
                    let content = try UnidentifiedSenderMessageContent(
                        outgoing.ciphertext, type: .senderKey, from: certificate,
                        contentHint: .resendable, groupId: outgoing.group.id)
                    return try sealedSenderMultiRecipientEncrypt(
                        content, for: recipients, identityStore: store, sessionStore: store,
                        context: TransactionContext(db))
                }
            } catch SignalError.sessionNotFound {
                // Every device needs a current session (its registration id goes into the message): one archived after a
                // retry receipt, or lost, is rebuilt from a fresh bundle, and the loop seals again.
                for member in members {
                    _ = try await sessions.withCurrentSessions(member, devices: try sessions.devices(of: member), as: credentials)
                }
                continue
            } catch SignalError.invalidRegistrationId {
                // A registration id past 14 bits, which the format cannot carry: the member-by-member path carries any.
                return false
            }
            let outcome: MultiRecipientSendOutcome
            do {
                let key = SendIdempotencyKey.make(
                    purpose: "group", recipient: outgoing.group.id.base64EncodedString(), timestamp: outgoing.timestamp,
                    deviceId: credentials.deviceId, secret: try database.read(SendIdempotencyKey.secret))
                outcome = try await api.sendMultiRecipient(
                    message, timestamp: outgoing.timestamp, combinedAccessKey: combined,
                    idempotencyKey: key)
            } catch ParleyError.server(let error) where error.status == 401 || error.status == 429 {
                // A refused combined key, or one member's sealed-send bucket emptied by a flood: member by member, so
                // only that member's copy waits for its retry.
                return false
            }
            switch outcome {
            case .sent:
                try await log(outgoing, to: recipients)
                return true
            case .mismatchedDevices(let accounts):
                for account in accounts {
                    if !account.devices.extraDevices.isEmpty {
                        try await sessions.remove(account.uuid, deviceIds: account.devices.extraDevices)
                    }
                    if !account.devices.missingDevices.isEmpty {
                        try await sessions.establish(
                            account.uuid, deviceIds: account.devices.missingDevices, except: ownDevice, as: credentials)
                    }
                }
            case .staleDevices(let accounts):
                for account in accounts {
                    try await sessions.remove(account.uuid, deviceIds: account.devices.staleDevices)
                    try await sessions.establish(account.uuid, deviceIds: account.devices.staleDevices, as: credentials)
                }
            case .unknownRecipients:
                // A member's account is gone: the member-by-member path leaves it out.
                return false
            }
        }
        throw ParleyError.invalidArgument("the device lists of the group's members kept changing; try again")
    }

    /// The group message to one member's devices in a request of its own.
    private func send(_ outgoing: Outgoing, to member: String, as credentials: DeviceCredentials) async throws {
        if try sessions.devices(of: member).isEmpty { try await sessions.establish(member, deviceIds: nil, as: credentials) }
        let conversationId = outgoing.group.conversationId
        let ciphertext = outgoing.ciphertext.base64EncodedString()
        _ = try await delivery.send(
            to: member, timestamp: outgoing.timestamp, as: credentials,
            log: (.group(conversationId: conversationId), outgoing.plaintext), groupId: outgoing.group.id
        ) { _ in
            try await handOut(outgoing.handout, to: member, conversationId: conversationId, as: credentials)
            // Handing out may have repaired the device list: the group message goes to the devices it reached.
            return try sessions.devices(of: member).map {
                OutgoingMessage(
                    destinationDeviceId: $0.deviceId, destinationRegistrationId: $0.registrationId,
                    type: CiphertextMessage.MessageType.senderKey.rawValue, content: ciphertext)
            }
        }
    }

    /// Sends `handout` 1:1 to `member` when one of its known devices does not hold it yet (after making sessions
    /// with its devices when there are none), and records that every device now holds it.
    private func handOut(_ handout: SenderKeyDistribution, to member: String, conversationId: Int64, as credentials: DeviceCredentials)
        async throws
    {
        if try sessions.devices(of: member).isEmpty { try await sessions.establish(member, deviceIds: nil, as: credentials) }
        let distribution = handout.distributionId.uuidString.lowercased()
        let holders = try database.read { db in
            try SenderKeySharesTable.holders(conversationId: conversationId, distributionId: distribution, member: member, db)
        }
        guard try sessions.devices(of: member).contains(where: { !holders.contains($0.deviceId) }) else { return }
        try await delivery.deliver(MessageContent(senderKeyDistribution: handout), to: member, timestamp: clock.next(), as: credentials)
        let devices = try sessions.devices(of: member)
        try await database.awaitableWrite { db in
            try SenderKeySharesTable.record(
                conversationId: conversationId, distributionId: distribution, member: member, deviceIds: devices.map(\.deviceId), db)
        }
    }

    /// Keeps the group message in the send log for every device in `recipients`.
    private func log(_ outgoing: Outgoing, to recipients: [ProtocolAddress]) async throws {
        let now = delivery.now()
        try await database.awaitableWrite { db in
            for (member, addresses) in Dictionary(grouping: recipients, by: \.name) {
                try MessageSendLog.record(
                    outgoing.plaintext, kind: .group(conversationId: outgoing.group.conversationId), to: member,
                    devices: addresses.map(\.deviceId), timestamp: outgoing.timestamp, now: now, db)
            }
        }
    }
}
