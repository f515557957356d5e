import Foundation
import ParleyAPI
import ParleyProtocol

/// The receive pipeline: decrypt, de-duplicate, store — all in one transaction with the session state the
/// decryption advanced — and only then acknowledge. Failures are stored as undecryptable messages, never dropped, and
/// the sending device is asked to send the message again (``RetryReceipts``); the message it resends takes the
/// undecryptable one's place.
struct MessageReceiver: Sendable {
    let database: ParleyDatabase
    let store: DatabaseProtocolStore
    let clock: MonotonicTimestamp
    /// Wall-clock milliseconds: sender certificates must be unexpired by it.
    let wallClock: @Sendable () -> UInt64
    /// Reads server-stored groups a message names when this device is behind on them (none: such messages are
    /// applied with what this device knows).
    var groups: ServerGroups? = nil

    /// What processing one envelope did.
    /// What processing one envelope or event did.
    typealias Outcome = ReceiveOutcome

    struct ReceiptJob: Codable, Sendable {
        let accountId: String
        let kind: String
        let timestamps: [UInt64]
    }

    /// Processes one envelope; the caller acknowledges it to the server after this returns (the result is committed).
    /// A message stored may release acts that arrived before it: this outcome does not say so;
    /// ``ParleyClient/listen(onOutcome:)`` and ``ParleyClient/receiveOnce()`` report each after the stored message, as
    /// ``Outcome/acted(_:)``.
    public func process(_ envelope: Envelope) async throws -> Outcome {
        try await receive(envelope).outcome
    }

    /// What processing one envelope did, and the acts of others that waited for the message it stored and applied now.
    struct Received: Sendable {
        var outcome: Outcome
        var released: [AppliedAct] = []
    }

    /// ``process(_:)``, with the acts it released. A message naming a server-stored group this device is behind on
    /// stops its transaction (nothing is committed, the session state included); the group is read from the server and
    /// the envelope processed again, once. If the server cannot be reached, the envelope stays unacknowledged.
    func receive(_ envelope: Envelope) async throws -> Received {
        guard let groups else { return try await receive(envelope, mayFetchGroup: false) }
        do {
            return try await receive(envelope, mayFetchGroup: true)
        } catch let needed as ServerGroupRefreshNeeded {
            do {
                try await groups.refresh(masterKey: needed.masterKey, author: needed.author)
            } catch let error as ParleyError {
                // The server unreachable, busy (429, 5xx) or odd: the envelope stays unacknowledged and comes again. (A
                // group the server will not show this account is no error: refresh records it.) Anything else — a master
                // key that is not one — cannot come out otherwise: the message is applied with what is known.
                if error.server != nil { throw error }
            }
            return try await receive(envelope, mayFetchGroup: false)
        }
    }

    private func receive(_ envelope: Envelope, mayFetchGroup: Bool) async throws -> Received {
        guard let ciphertext = Data(base64Encoded: envelope.content) else {
            return Received(outcome: .undecryptable(reason: "content is not base64"))
        }
        // The server bounds what it stores; a later time than a database column holds is a server's garbage.
        guard envelope.timestamp <= MessageContent.maximumTimestamp, envelope.serverTimestamp <= MessageContent.maximumTimestamp else {
            return Received(outcome: .rejected(reason: "an envelope timestamp later than \(MessageContent.maximumTimestamp) ms"))
        }
        let now = clock.next()
        let wallTime = wallClock()
        // With the outcome: whether a delete for everyone erased content.
        let (received, erased) = try await database.awaitableWrite { [store] db -> (Received, Bool) in
            let credentials = try LocalAccount.credentials(db)
            let source: EnvelopeSource
            do {
                source = try EnvelopeSource.open(envelope, ciphertext: ciphertext, store: store, db, now: wallTime)
            } catch {
                // No sender can be believed: nothing is shown under any name. The envelope is acknowledged.
                return (Received(outcome: .undecryptable(reason: "sealed sender: \(error)")), false)
            }
            let sender = try ProtocolAddress(name: source.accountId, deviceId: source.deviceId)
            if source.type == CiphertextMessage.MessageType.plaintext.rawValue {
                // Plaintext content is only ever a retry receipt: a device asking this one to send a message again.
                do {
                    _ = try RetryReceipts.accept(
                        source.ciphertext, from: sender, localDeviceId: credentials.deviceId, store: store, db, now: now)
                    return (Received(outcome: .applied), false)
                } catch {
                    return (Received(outcome: .rejected(reason: "plaintext content that is not a retry receipt: \(error)")), false)
                }
            }
            let plaintext: [UInt8]
            do {
                plaintext = try Self.decrypt(
                    source.ciphertext, type: source.type, from: sender,
                    to: try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId), store: store, db)
            } catch SignalError.duplicatedMessage {
                return (Received(outcome: .duplicate), false)
            } catch {
                return (
                    Received(outcome: try Self.recordFailure(envelope, from: source, reason: "\(error)", askForResend: true, db, now: now)),
                    false
                )
            }
            let content: MessageContent
            do {
                content = try MessageContent.decode(plaintext)
            } catch {
                return (Received(outcome: try Self.recordFailure(envelope, from: source, reason: "\(error)", db, now: now)), false)
            }
            var released = ConversationActions.ReleasedActs()
            let outcome = try Self.apply(
                content, from: source, in: envelope, localAccountId: credentials.accountId,
                localDeviceId: credentials.deviceId, store: store, db, now: now, released: &released, mayFetchGroup: mayFetchGroup)
            return (Received(outcome: outcome, released: released.reported), Self.erased(outcome, content) || released.deletedMessage)
        }
        // A delete for everyone erased content: its old page images leave the write-ahead log too.
        if erased { await database.truncateWriteAheadLog() }
        return received
    }

    /// Whether applying `content` deleted a message for everyone (one from a peer, or synced from another device).
    private static func erased(_ outcome: Outcome, _ content: MessageContent) -> Bool {
        if case .acted(let act) = outcome, case .deleteForEveryone = act.kind { return true }
        return outcome == .applied && content.sentTranscript?.message.deleteTarget != nil
    }

    /// Applies the decrypted `content` of `envelope` from `source` (inside the receive transaction): a data message to its
    /// conversation, a sync transcript from this account's own devices, receipts, typing, a sender key. What breaks a
    /// rule is refused or recorded; only a database failure throws (the envelope then stays unacknowledged). Acts that
    /// waited for a message stored now are added to `released`.
    static func apply(
        _ content: MessageContent, from source: EnvelopeSource, in envelope: Envelope, localAccountId: String,
        localDeviceId: UInt32, store: DatabaseProtocolStore, _ db: StorageTransaction, now: UInt64,
        released: inout ConversationActions.ReleasedActs, mayFetchGroup: Bool = false
    ) throws -> Outcome {
        let sender = try ProtocolAddress(name: source.accountId, deviceId: source.deviceId)
        // A resent message takes the place of the copy that could not be decrypted.
        try MessagesTable.removeUndecryptable(author: source.accountId, device: source.deviceId, timestamp: envelope.timestamp, db)
        if let message = content.dataMessage {
            if let profileKey = message.profileKey, source.accountId != localAccountId {
                try Self.keep(profileKey, of: source.accountId, db)
            }
            if let claimed = message.senderUsername, source.accountId != localAccountId {
                try RecipientsTable.keep(claimedUsername: claimed, of: source.accountId, db)
            }
            let origin = ConversationActions.Origin(
                author: source.accountId, authorDevice: source.deviceId, timestamp: envelope.timestamp,
                serverTimestamp: envelope.serverTimestamp, peer: source.accountId,
                outgoing: source.accountId == localAccountId, status: .received, now: now,
                localAccountId: localAccountId, arrival: .received, mayFetchGroup: mayFetchGroup)
            let result = try ConversationActions.apply(message, from: origin, db, released: &released)
            if case .stored(let id) = result, source.sealed {
                try MessagesTable.markSealed(id, db)
            }
            if case .stored = result, source.accountId != localAccountId, message.reaction == nil, !message.isTimerUpdate {
                try JobQueue.enqueue(
                    .receipt(ReceiptJob(accountId: source.accountId, kind: "delivered", timestamps: [envelope.timestamp])),
                    now: now, db)
            }
            // This account's own acts, synced from its other devices, are not reported (nor when they come as transcripts).
            if case .applied = result, source.accountId != localAccountId, let kind = AppliedAct.Kind(message) {
                return .acted(
                    AppliedAct(
                        authorAccountId: source.accountId, authorDeviceId: source.deviceId, timestamp: envelope.timestamp,
                        groupId: message.group?.id, kind: kind))
            }
            return Outcome(result)
        }
        if let transcript = content.sentTranscript {
            // Only this account's own devices may tell us what "we" sent.
            guard source.accountId == localAccountId else {
                return try Self.recordFailure(envelope, from: source, reason: "a sent transcript from another account", db, now: now)
            }
            // The primary device rotated the profile key (it alone rotates: a linked device that has not heard of
            // a rotation yet cannot bring the old key back).
            if source.deviceId == 1, localDeviceId != 1, let bytes = transcript.message.profileKey,
                let profileKey = try? ProfileKey(bytes: bytes), try AccountManager.storedProfileKey(db) != profileKey
            {
                try AccountManager.keepProfileKey(profileKey, db)
            }
            let origin = ConversationActions.Origin(
                author: localAccountId, authorDevice: source.deviceId, timestamp: envelope.timestamp,
                serverTimestamp: envelope.serverTimestamp, peer: transcript.destinationAccountId, outgoing: true, status: .sent, now: now,
                localAccountId: localAccountId, arrival: .received, mayFetchGroup: mayFetchGroup)
            return Outcome(try ConversationActions.apply(transcript.message, from: origin, db, released: &released))
        }
        if let receipt = content.receipt {
            let status: MessageStatus = receipt.kind == "read" ? .read : .delivered
            try MessageSendLog.forget(timestamps: receipt.timestamps, to: source.accountId, deviceId: source.deviceId, db)
            for timestamp in receipt.timestamps {
                // Only a message sent to the receipt's sender: a 1:1 with it, or a group it is in.
                guard let id = try MessagesTable.sent(at: timestamp, by: localAccountId, seenBy: source.accountId, db) else { continue }
                try MessagesTable.receiptArrived(status, messageId: id, db)
                try ReceiptsTable.record(receipt.kind, for: id, from: source.accountId, deviceId: source.deviceId, now: now, db)
            }
            return .acted(
                AppliedAct(
                    authorAccountId: source.accountId, authorDeviceId: source.deviceId, timestamp: envelope.timestamp,
                    groupId: nil, kind: .receipt(kind: receipt.kind, timestamps: receipt.timestamps)))
        }
        if let typing = content.typing { return try Self.typing(typing, in: content.typingGroupId, from: source, db) }
        if let distribution = content.senderKeyDistribution {
            // A server-stored group's new member (one who accepted an invitation or joined by link) may hand over its key
            // before this device heard of the change: read the group from the server first.
            if mayFetchGroup, let group = try ConversationsTable.group(id: distribution.groupId, db), let masterKey = group.masterKey,
                !group.members.contains(source.accountId)
            {
                throw ServerGroupRefreshNeeded(masterKey: masterKey, author: source.accountId)
            }
            do {
                return try Self.accept(distribution, from: sender, store: store, db)
            } catch let error where ParleyDatabase.isStorageFailure(error) {
                throw error
            } catch {
                // Refused and acknowledged: left unacknowledged, it would come back first after every reconnect and
                // hold up everything behind it.
                return .rejected(reason: "a sender key that cannot be taken: \(error)")
            }
        }
        return .applied
    }

    /// Processes an ephemeral event (never stored by the server): a typing indicator encrypted for each of this
    /// account's devices — named by the server, or sealed sender (the event names no source: the sender is believed
    /// from the certificate inside, as for a sealed envelope). The session state its decryption advances is committed;
    /// nothing else is stored.
    public func process(_ event: EphemeralEvent) async throws -> Outcome {
        guard event.kind == EphemeralKind.typing, (event.sourceAccountId == nil) == (event.sourceDeviceId == nil),
            let payload = Data(base64Encoded: event.content),
            let copies = try? JSONDecoder().decode([OutgoingMessage].self, from: payload), copies.count <= 64
        else { return .rejected(reason: "not a typing event this client understands") }
        let wallTime = wallClock()
        // Content that decrypted but is no typing indicator: the transaction rolls back, so the message key it used is
        // not spent on something that should have come as an envelope.
        struct NotTyping: Error {}
        do {
            return try await database.awaitableWrite { [store] db in
                let credentials = try LocalAccount.credentials(db)
                guard let copy = copies.first(where: { $0.destinationDeviceId == credentials.deviceId }),
                    let ciphertext = Data(base64Encoded: copy.content)
                else { return .rejected(reason: "no copy for this device") }
                // A sealed copy on an event that names no source, and only there.
                guard (event.sourceAccountId == nil) == (copy.type == OutgoingMessage.unidentifiedSenderType) else {
                    return .rejected(reason: "a typing event whose copy and source disagree about sealing")
                }
                do {
                    let sealed = Envelope(
                        guid: "", sourceAccountId: event.sourceAccountId, sourceDeviceId: event.sourceDeviceId, type: copy.type,
                        content: "", timestamp: event.timestamp, serverTimestamp: event.timestamp)
                    let source = try EnvelopeSource.open(sealed, ciphertext: ciphertext, store: store, db, now: wallTime)
                    let plaintext = try Self.decrypt(
                        source.ciphertext, type: source.type,
                        from: try ProtocolAddress(name: source.accountId, deviceId: source.deviceId),
                        to: try ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId),
                        store: store, db)
                    let content = try MessageContent.decode(plaintext)
                    guard let action = content.typing else { throw NotTyping() }
                    return try Self.typing(action, in: content.typingGroupId, from: source, db)
                } catch let error as NotTyping {
                    throw error
                } catch SignalError.duplicatedMessage {
                    return .duplicate
                } catch let error where ParleyDatabase.isStorageFailure(error) {
                    // The database failed, not the event: nothing is committed.
                    throw error
                } catch {
                    // Ephemeral: a failure is not worth a row in the conversation.
                    return .rejected(reason: "\(error)")
                }
            }
        } catch is NotTyping {
            return .rejected(reason: "an ephemeral event that is not typing")
        }
    }

    /// A typing indicator from `source`, in the group `groupId` or (`nil`) the 1:1 chat. One about a group is taken only
    /// from a member of a group this account is in: anyone else's is refused, so no one outside a group can appear in
    /// it as typing.
    static func typing(_ action: TypingAction, in groupId: Data?, from source: EnvelopeSource, _ db: StorageTransaction) throws -> Outcome {
        if let groupId {
            guard let group = try ConversationsTable.group(id: groupId, db), !group.left, group.members.contains(source.accountId) else {
                return .rejected(reason: "typing in a group the sender is not in (or this account left)")
            }
        }
        return .typing(accountId: source.accountId, deviceId: source.deviceId, action: action, groupId: groupId)
    }

    /// Stores a member's sender key for a group it is in, and which group and distribution its chain belongs to.
    static func accept(
        _ distribution: SenderKeyDistribution, from sender: ProtocolAddress, store: DatabaseProtocolStore,
        _ db: StorageTransaction
    ) throws -> Outcome {
        guard let group = try ConversationsTable.group(id: distribution.groupId, db), group.members.contains(sender.name) else {
            return .rejected(reason: "a sender key for a group the sender is not in")
        }
        guard !group.left else { return .rejected(reason: "a sender key for a group this account left") }
        let message = try SenderKeyDistributionMessage(bytes: distribution.message)
        try processSenderKeyDistributionMessage(
            message, from: sender, distributionId: distribution.distributionId, store: store,
            context: TransactionContext(db))
        try SenderKeyChainsTable.record(
            accountId: sender.name, deviceId: sender.deviceId, chainId: message.chainId, conversationId: group.conversationId,
            distributionId: distribution.distributionId, db)
        try SenderKeyChainsTable.keepNewestDistributions(
            accountId: sender.name, deviceId: sender.deviceId, conversationId: group.conversationId, db)
        return .applied
    }

    static func decrypt(
        _ ciphertext: Data, type: UInt8, from sender: ProtocolAddress, to local: ProtocolAddress,
        store: DatabaseProtocolStore, _ db: StorageTransaction
    ) throws -> [UInt8] {
        let context = TransactionContext(db)
        switch type {
        case CiphertextMessage.MessageType.senderKey.rawValue:
            let chainId = try SenderKeyMessage(bytes: ciphertext).chainId
            guard
                let distribution = try SenderKeyChainsTable.distribution(
                    accountId: sender.name, deviceId: sender.deviceId, chainId: chainId, db)
            else {
                throw SignalError.invalidSenderKeySession(
                    distributionId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                    message: "no sender key from \(sender) for chain \(chainId)")
            }
            return Array(try groupDecrypt(ciphertext, from: sender, distributionId: distribution, store: store, context: context))
        case CiphertextMessage.MessageType.preKey.rawValue:
            let message = try PreKeySignalMessage(bytes: ciphertext)
            let plaintext = Array(
                try signalDecryptPreKey(
                    message: message, from: sender, localAddress: local, sessionStore: store,
                    identityStore: store, preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context))
            // A pre-key message may come from a new installation with a known device id: it holds none of the sender keys.
            try DeviceSessions.recordInstallation(
                sender.deviceId, of: sender.name, registrationId: try message.registrationId(),
                addingUnknown: false, db)
            return plaintext
        case CiphertextMessage.MessageType.whisper.rawValue:
            return Array(
                try signalDecrypt(
                    message: try SignalMessage(bytes: ciphertext), from: sender, to: local, sessionStore: store,
                    identityStore: store, context: context))
        default:
            throw SignalError.invalidMessage("unsupported message type \(type)")
        }
    }

    /// Records an undecryptable message from `source`; with `askForResend`, the first failure of a message also queues
    /// a retry receipt to the device that sent it.
    private static func recordFailure(
        _ envelope: Envelope, from source: EnvelopeSource, reason: String, askForResend: Bool = false,
        _ db: StorageTransaction, now: UInt64
    ) throws -> Outcome {
        let conversationId = try ConversationsTable.oneToOne(with: source.accountId, now: now, db)
        if let id = try MessagesTable.insert(
            NewMessage(
                conversationId: conversationId, outgoing: false, authorAccountId: source.accountId, authorDeviceId: source.deviceId,
                timestamp: envelope.timestamp, serverTimestamp: envelope.serverTimestamp, body: nil, status: .undecryptable, replyToId: nil),
            db)
        {
            try MessagesTable.setFailureReason(reason, messageId: id, db)
            if askForResend {
                try JobQueue.enqueue(
                    .retryRequest(
                        RetryReceipts.RequestJob(
                            accountId: source.accountId, deviceId: source.deviceId, timestamp: envelope.timestamp, type: source.type,
                            ciphertext: source.ciphertext)), now: now, db)
            }
        }
        return .undecryptable(reason: reason)
    }

    /// Keeps `bytes` as the profile key of `accountId` (a contact's key, learned from its message); a new key lifts an
    /// earlier refusal of the access key derived from the old one.
    static func keep(_ bytes: Data, of accountId: String, _ db: StorageTransaction) throws {
        guard bytes.count == ProfileKey.length else { return }
        try RecipientsTable.keep(profileKey: bytes, of: accountId, db)
    }
}

/// A conversation rule's verdict as what receiving did.
extension ReceiveOutcome {
    init(_ result: ConversationActions.Result) {
        switch result {
        case .stored(let id): self = .stored(messageId: id)
        case .duplicate: self = .duplicate
        case .applied: self = .applied
        case .rejected(let reason): self = .rejected(reason: reason)
        case .held: self = .held
        }
    }
}
