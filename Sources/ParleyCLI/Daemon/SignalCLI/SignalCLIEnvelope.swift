import Foundation
import ParleyKit

/// An incoming message as signal-cli's `receive` notification presents it: `{"account": …, "envelope": {…}}`, the
/// envelope with `source`, `sourceNumber`, `sourceUuid`, `sourceName`, `sourceDevice`, timestamps and a `dataMessage`
/// (text, expiry, group, quote, attachments). Fields signal-cli always writes are written as `null` when Parley has no
/// value for them.
enum SignalCLIEnvelope {
    /// The notification parameters for `message`, received by the account `account` (its number or id).
    static func params(for message: StoredMessage, account: String, client: ParleyClient) throws -> JSONValue {
        .object(["account": .string(account), "envelope": try envelope(for: message, client: client)])
    }

    /// How an attachment is named outside: `ACCOUNTID_LOCALID`, since local ids are per account database.
    static func attachmentID(_ localId: Int64, account accountId: String) -> String { "\(accountId)_\(localId)" }

    /// The account id and local id an ``attachmentID(_:account:)`` names.
    static func parseAttachmentID(_ text: String) -> (accountId: String, localId: Int64)? {
        guard let separator = text.lastIndex(of: "_"), let localId = Int64(text[text.index(after: separator)...]) else { return nil }
        return (String(text[..<separator]), localId)
    }

    static func envelope(for message: StoredMessage, client: ParleyClient) throws -> JSONValue {
        let author = SignalCLIAddress.Address(accountId: message.authorAccountId, username: message.authorUsername)
        var data: [String: JSONValue] = [
            "timestamp": .integer(Int64(message.timestamp)),
            "message": message.body.map(JSONValue.string) ?? .null,
            "expiresInSeconds": .integer(Int64(message.expireTimer)),
            "isExpirationUpdate": .bool(message.kind == .timerChange),
            "viewOnce": .bool(false),
        ]
        if let group = try client.groups().first(where: { $0.threadId == message.threadId }) {
            data["groupInfo"] = .object([
                "groupId": .string(GroupID(group.id).base64), "groupName": .string(group.title),
                "revision": .integer(Int64(group.revision)), "type": .string(message.kind == .groupChange ? "UPDATE" : "DELIVER"),
            ])
        }
        if let quotedId = message.replyToId, let quoted = try client.message(id: quotedId) {
            let quotedAuthor = SignalCLIAddress.Address(accountId: quoted.authorAccountId, username: quoted.authorUsername)
            data["quote"] = .object([
                "id": .integer(Int64(quoted.timestamp)), "author": .string(quotedAuthor.number ?? quotedAuthor.uuid),
                "authorNumber": quotedAuthor.number.map(JSONValue.string) ?? .null, "authorUuid": .string(quotedAuthor.uuid),
                "text": quoted.body.map(JSONValue.string) ?? .null, "attachments": .array([]),
            ])
        }
        let attachments = try client.attachments(ofMessage: message.id)
        let accountId = try client.credentials().accountId
        if !attachments.isEmpty {
            data["attachments"] = .array(attachments.map { attachment in
                .object([
                    "contentType": .string(attachment.contentType ?? "application/octet-stream"),
                    "filename": attachment.fileName.map(JSONValue.string) ?? .null,
                    "id": .string(attachmentID(attachment.id, account: accountId)),
                    "size": .integer(Int64(attachment.size)), "width": .null, "height": .null, "caption": .null, "uploadTimestamp": .null,
                    "isVoiceNote": .bool(attachment.voiceNote),
                ])
            })
        }
        let received = Int64(message.serverTimestamp ?? message.timestamp)
        var body: [String: JSONValue] = ["dataMessage": .object(data)]
        if message.outgoing {
            // Sent from another device of this account: signal-cli's sync message, the data message flattened into it.
            var sent = data
            let conversation = try client.conversations().first { $0.threadId == message.threadId && $0.groupId == nil }
            let destination = conversation.map { SignalCLIAddress.Address(accountId: $0.accountId, username: $0.username) }
            sent["destination"] = destination.map { .string($0.number ?? $0.uuid) } ?? .null
            sent["destinationNumber"] = destination?.number.map(JSONValue.string) ?? .null
            sent["destinationUuid"] = destination.map { .string($0.uuid) } ?? .null
            body = ["syncMessage": .object(["sentMessage": .object(sent)])]
        }
        return .object(body.merging([
            "source": .string(author.number ?? author.uuid), "sourceNumber": author.number.map(JSONValue.string) ?? .null,
            "sourceUuid": .string(author.uuid), "sourceName": author.username.map(JSONValue.string) ?? .null,
            "sourceDevice": .integer(Int64(message.authorDeviceId)), "timestamp": .integer(Int64(message.timestamp)),
            "serverReceivedTimestamp": .integer(received), "serverDeliveredTimestamp": .integer(received),
        ]) { $1 })
    }
}
