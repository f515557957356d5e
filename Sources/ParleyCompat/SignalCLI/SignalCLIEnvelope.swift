import Foundation
import ParleyKit

/// An incoming message as signal-cli's `receive` notification presents it: `{"account": …, "envelope": {…}}`, the
/// envelope with `source`, `sourceNumber`, `sourceUuid`, `sourceName`, `sourceDevice`, timestamps and a `dataMessage`
/// (text, expiry, group, quote, attachments). Fields signal-cli always writes are written as `null` when Parley has no
/// value for them.
enum SignalCLIEnvelope {
    /// The notification parameters for `message`, received by the account `account` (its number or id).
    static func params(for message: StoredMessage, account: String, client: any CompatClient) throws -> JSONValue {
        .object(["account": .string(account), "envelope": try envelope(for: message, client: client)])
    }

    /// How an attachment is named outside: `ACCOUNTID_LOCALID`, since local ids are per account database.
    static func attachmentID(_ localId: Int64, account accountId: String) -> String { "\(accountId)_\(localId)" }

    /// The account id and local id an ``attachmentID(_:account:)`` names.
    static func parseAttachmentID(_ text: String) -> (accountId: String, localId: Int64)? {
        guard let separator = text.lastIndex(of: "_"), let localId = Int64(text[text.index(after: separator)...]) else { return nil }
        return (String(text[..<separator]), localId)
    }

    static func envelope(for message: StoredMessage, client: any CompatClient) throws -> JSONValue {
        let author = SignalCLIAddress.Address(accountId: message.authorAccountId, username: message.authorUsername)
        var data = dataMessage(
            timestamp: message.timestamp, text: message.body, expiresInSeconds: message.expireTimer,
            isExpirationUpdate: message.kind == .timerChange)
        if let group = try client.groups().first(where: { $0.conversationId == message.conversationId }) {
            data["groupInfo"] = groupInfo(group, update: message.kind == .groupChange)
        }
        try addMentions(message.mentions, to: &data, client: client)
        if let quotedId = message.replyToId, let quoted = try client.message(id: quotedId) {
            let quotedAuthor = SignalCLIAddress.Address(accountId: quoted.authorAccountId, username: quoted.authorUsername)
            data["quote"] = .object([
                "id": .integer(Int64(quoted.timestamp)), "author": .string(quotedAuthor.number ?? quotedAuthor.uuid),
                "authorNumber": .orNull(quotedAuthor.number), "authorUuid": .string(quotedAuthor.uuid),
                "text": .orNull(quoted.body), "attachments": .array([]),
            ])
        }
        let attachments = try client.attachments(ofMessage: message.id)
        let accountId = try client.credentials().accountId
        if !attachments.isEmpty {
            data["attachments"] = .array(
                attachments.map { attachment in
                    .object([
                        "contentType": .string(attachment.contentType ?? "application/octet-stream"),
                        "filename": .orNull(attachment.fileName),
                        "id": .string(attachmentID(attachment.id, account: accountId)),
                        "size": .integer(Int64(attachment.size)), "width": .null, "height": .null, "caption": .null,
                        "uploadTimestamp": .null,
                        "isVoiceNote": .bool(attachment.voiceNote),
                    ])
                })
        }
        let received = Int64(message.serverTimestamp ?? message.timestamp)
        var body: [String: JSONValue] = ["dataMessage": .object(data)]
        if message.outgoing {
            // Sent from another device of this account: signal-cli's sync message, the data message flattened into it.
            var sent = data
            let conversation = try client.conversations().first { $0.conversationId == message.conversationId && $0.groupId == nil }
            let destination = conversation.map { SignalCLIAddress.Address(accountId: $0.accountId, username: $0.username) }
            sent["destination"] = destination.map { .string($0.number ?? $0.uuid) } ?? .null
            sent["destinationNumber"] = .orNull(destination?.number)
            sent["destinationUuid"] = destination.map { .string($0.uuid) } ?? .null
            body = ["syncMessage": .object(["sentMessage": .object(sent)])]
        }
        return .object(
            body.merging(header(author, device: message.authorDeviceId, timestamp: message.timestamp, received: received)) { $1 })
    }

    /// The notification parameters for an act another device's message applied here (a reaction, a delete for
    /// everyone, a receipt), received by the account `account`.
    static func params(for act: AppliedAct, account: String, client: any CompatClient) throws -> JSONValue {
        var body: [String: JSONValue]
        switch act.kind {
        case .reaction(let emoji, let remove, let targetAuthorId, let targetTimestamp):
            let target = SignalCLIAddress.Address(
                accountId: targetAuthorId, username: try client.usernames(of: [targetAuthorId])[targetAuthorId])
            var data = dataMessage(timestamp: act.timestamp, text: nil, expiresInSeconds: 0, isExpirationUpdate: false)
            data["reaction"] = .object([
                "emoji": .string(emoji), "targetAuthor": .string(target.number ?? target.uuid),
                "targetAuthorNumber": .orNull(target.number), "targetAuthorUuid": .string(target.uuid),
                "targetSentTimestamp": .integer(Int64(targetTimestamp)), "isRemove": .bool(remove),
            ])
            body = ["dataMessage": .object(try withGroup(data, act.groupId, client: client))]
        case .edit(let targetTimestamp, let text, let mentions):
            var data = dataMessage(timestamp: act.timestamp, text: text, expiresInSeconds: 0, isExpirationUpdate: false)
            try addMentions(mentions, to: &data, client: client)
            body = [
                "editMessage": .object([
                    "targetSentTimestamp": .integer(Int64(targetTimestamp)),
                    "dataMessage": .object(try withGroup(data, act.groupId, client: client)),
                ])
            ]
        case .deleteForEveryone(let targetTimestamp):
            var data = dataMessage(timestamp: act.timestamp, text: nil, expiresInSeconds: 0, isExpirationUpdate: false)
            data["remoteDelete"] = .object(["timestamp": .integer(Int64(targetTimestamp))])
            body = ["dataMessage": .object(try withGroup(data, act.groupId, client: client))]
        case .receipt(let kind, let timestamps):
            body = [
                "receiptMessage": .object([
                    "when": .integer(Int64(act.timestamp)), "isDelivery": .bool(kind != "read"), "isRead": .bool(kind == "read"),
                    "isViewed": .bool(false), "timestamps": .array(timestamps.map { .integer(Int64($0)) }),
                ])
            ]
        }
        let author = SignalCLIAddress.Address(
            accountId: act.authorAccountId, username: try client.usernames(of: [act.authorAccountId])[act.authorAccountId])
        let envelope = JSONValue.object(
            body.merging(
                header(
                    author, device: act.authorDeviceId, timestamp: act.timestamp,
                    received: Int64(act.timestamp))
            ) { $1 })
        return .object(["account": .string(account), "envelope": envelope])
    }

    /// The notification parameters for a typing indicator from `accountId`'s `device`, in the group `groupId` (its
    /// base64 id as `typingMessage.groupId`, as signal-cli writes it) or the 1:1 chat.
    static func params(
        typing action: TypingAction, in groupId: Data?, from accountId: String, device: UInt32, account: String,
        client: any CompatClient
    ) throws -> JSONValue {
        let now = SignalCLIMethods.now
        let author = SignalCLIAddress.Address(accountId: accountId, username: try client.usernames(of: [accountId])[accountId])
        var fields = header(author, device: device, timestamp: now, received: Int64(now))
        var typing: [String: JSONValue] = [
            "action": .string(action == .started ? "STARTED" : "STOPPED"), "timestamp": .integer(Int64(now)),
        ]
        if let groupId { typing["groupId"] = .string(GroupID(groupId).base64) }
        fields["typingMessage"] = .object(typing)
        return .object(["account": .string(account), "envelope": .object(fields)])
    }

    /// The fields every envelope has: who sent it, from which device, and when.
    private static func header(_ author: SignalCLIAddress.Address, device: UInt32, timestamp: UInt64, received: Int64) -> [String:
        JSONValue]
    {
        [
            "source": .string(author.number ?? author.uuid), "sourceNumber": .orNull(author.number),
            "sourceUuid": .string(author.uuid), "sourceName": .orNull(author.username),
            "sourceDevice": .integer(Int64(device)), "timestamp": .integer(Int64(timestamp)),
            "serverReceivedTimestamp": .integer(received), "serverDeliveredTimestamp": .integer(received),
        ]
    }

    /// The fields every `dataMessage` has.
    private static func dataMessage(timestamp: UInt64, text: String?, expiresInSeconds: UInt32, isExpirationUpdate: Bool) -> [String:
        JSONValue]
    {
        [
            "timestamp": .integer(Int64(timestamp)), "message": .orNull(text),
            "expiresInSeconds": .integer(Int64(expiresInSeconds)), "isExpirationUpdate": .bool(isExpirationUpdate),
            "viewOnce": .bool(false),
        ]
    }

    /// signal-cli's `mentions` of a `dataMessage` (`{name, number, uuid, start, length}` each), when there are any.
    private static func addMentions(_ mentions: [Mention], to data: inout [String: JSONValue], client: any CompatClient) throws {
        guard !mentions.isEmpty else { return }
        let usernames = try client.usernames(of: mentions.map(\.accountId))
        data["mentions"] = .array(
            mentions.map { mention in
                let named = SignalCLIAddress.Address(accountId: mention.accountId, username: usernames[mention.accountId])
                return .object([
                    "name": .string(named.number ?? named.uuid), "number": .orNull(named.number), "uuid": .string(named.uuid),
                    "start": .integer(Int64(mention.start)), "length": .integer(Int64(mention.length)),
                ])
            })
    }

    /// signal-cli's `groupInfo` for `group`.
    private static func groupInfo(_ group: GroupInfo, update: Bool) -> JSONValue {
        .object([
            "groupId": .string(GroupID(group.id).base64), "groupName": .string(group.title),
            "revision": .integer(Int64(group.revision)), "type": .string(update ? "UPDATE" : "DELIVER"),
        ])
    }

    /// `data` with the `groupInfo` of the group `groupId` names, when it names one this account knows.
    private static func withGroup(_ data: [String: JSONValue], _ groupId: Data?, client: any CompatClient) throws -> [String: JSONValue] {
        guard let groupId, let group = try client.groups().first(where: { $0.id == groupId }) else { return data }
        return data.merging(["groupInfo": groupInfo(group, update: false)]) { $1 }
    }
}
