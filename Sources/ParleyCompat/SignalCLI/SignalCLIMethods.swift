import Foundation
import ParleyKit

/// signal-cli's JSON-RPC methods, answered by a ``ParleyClient``: the same names, parameters and result shapes as
/// signal-cli's daemon (`send`, `sendReaction`, `listGroups`, `updateGroup`, …), so tools written for signal-cli
/// drive Parley. A front door: it parses and presents; every operation is ParleyKit's.
///
/// List parameters take a string or an array, under the singular or plural name (`recipient`/`recipients`), as
/// signal-cli's do. Recipients are named as ``SignalCLIAddress`` says; group ids are base64 (hex accepted too).
struct SignalCLIMethods: Sendable {
    let client: any CompatClient
    /// How signal-cli's results and notifications name this account: `+digits` for a digits-only username, else its id.
    let account: String
    /// Attachments given as `data:` URIs, kept until they are sent.
    let staging: StagedAttachments

    /// The methods answered here, each with its parameters type and handler.
    static let table: [String: SignalCLIMethod] = Dictionary(
        uniqueKeysWithValues: [
            SignalCLIMethod("version", NoParameters.self) { _, _ in version },
            SignalCLIMethod("send", SendParameters.self) { methods, p in try await methods.send(p) },
            SignalCLIMethod("sendReaction", SendReactionParameters.self) { methods, p in try await methods.sendReaction(p) },
            SignalCLIMethod("sendReceipt", SendReceiptParameters.self) { methods, p in try await methods.sendReceipt(p) },
            SignalCLIMethod("sendTyping", SendTypingParameters.self) { methods, p in try await methods.sendTyping(p) },
            SignalCLIMethod("remoteDelete", RemoteDeleteParameters.self) { methods, p in try await methods.remoteDelete(p) },
            SignalCLIMethod("listGroups", ListGroupsParameters.self) { methods, p in try methods.listGroups(p) },
            SignalCLIMethod("updateGroup", UpdateGroupParameters.self) { methods, p in try await methods.updateGroup(p) },
            SignalCLIMethod("quitGroup", QuitGroupParameters.self) { methods, p in try await methods.quitGroup(p) },
            SignalCLIMethod("getUserStatus", GetUserStatusParameters.self) { methods, p in try await methods.userStatus(p) },
            SignalCLIMethod("listContacts", NoParameters.self) { methods, _ in try methods.listContacts() },
            SignalCLIMethod("listIdentities", ListIdentitiesParameters.self) { methods, p in try methods.listIdentities(p) },
            SignalCLIMethod("trust", TrustParameters.self) { methods, p in try await methods.trust(p) },
            SignalCLIMethod("listDevices", NoParameters.self) { methods, _ in try await methods.listDevices() },
            SignalCLIMethod("addDevice", AddDeviceParameters.self) { methods, p in try await methods.addDevice(p) },
            SignalCLIMethod("removeDevice", RemoveDeviceParameters.self) { methods, p in try await methods.removeDevice(p) },
            SignalCLIMethod("setPin", SetPinParameters.self) { methods, p in try await methods.setPin(p) },
            SignalCLIMethod("removePin", NoParameters.self) { methods, _ in try await methods.removePin() },
        ].map { ($0.name, $0) })

    /// `version`'s result (it needs no account).
    static let version = JSONValue.object(["version": .string(ParleyVersion.current)])

    /// The result of `method` with `params`.
    /// - Throws: ``JSONRPCError`` in signal-cli's codes: -32601 for a method not answered here, -32602 for a parameter
    ///   of the wrong type; the handler's errors.
    func call(_ method: String, _ params: [String: JSONValue]) async throws -> JSONValue {
        guard let handler = Self.table[method] else { throw JSONRPCError.methodNotFound(method) }
        return try await handler(self, params)
    }

    // MARK: Sending

    /// Most recipients one call names (`send`, `sendTyping`, `getUserStatus`…: each is looked up, and gets a message).
    static let maximumRecipients = 1_000
    /// Most messages one `sendReceipt` names (each is looked up).
    static let maximumTargets = 1_000

    fileprivate func send(_ p: SendParameters) async throws -> JSONValue {
        let recipients = p.people
        let groups = try groups(p.groupIds)
        let text = p.message ?? ""
        let mentions = try await mentions(p.mentions)
        if let target = p.editTimestamp {
            let own = try ownMessage(sentAt: target)
            let accountIds = try await resolve(recipients)
            return try await delivered(
                try await client.edit(own.id, body: text, mentions: mentions, attempt: .dueJobs), to: accountIds, groups: groups)
        }
        guard !recipients.isEmpty || !groups.isEmpty else { throw JSONRPCError.userError("No recipients given") }
        try Self.refuseLeft(groups)
        let attachments = p.attachments
        guard attachments.count <= MessageContent.maximumAttachments else {
            throw JSONRPCError.userError("At most \(MessageContent.maximumAttachments) attachments per message")
        }
        guard !text.isEmpty || !attachments.isEmpty else {
            throw JSONRPCError.userError("Sending empty message is not allowed, no message, attachments or sticker given.")
        }
        var replyTo: Int64?
        if let quoted = p.quoteTimestamp {
            guard let author = p.quoteAuthor else { throw JSONRPCError.userError("Quote author parameter is missing") }
            let authorId = try await SignalCLIAddress.resolve(author, with: client)
            guard let message = try client.message(author: authorId, timestamp: try Self.timestamp(quoted)) else {
                throw JSONRPCError.userError("Quoted message not found: \(author) at \(quoted)")
            }
            replyTo = message.id
        }
        // Every recipient is looked up before anything is staged or queued: one unknown name fails the call with nothing
        // sent and nothing left behind.
        let accountIds = try await resolve(recipients)
        var files: [URL] = []
        var sent: [(id: Int64, recipient: String?, group: GroupInfo?)] = []
        do {
            for attachment in attachments { files.append(try staging.file(for: attachment)) }
            let draft = MessageDraft(
                body: text, attachments: try files.map { try OutgoingAttachment(file: $0) }, replyTo: replyTo,
                mentions: mentions)
            // Everything is queued before anything is sent: one pass for all of it, below.
            for accountId in accountIds {
                sent.append(
                    (
                        try await client.send(draft, to: .person(accountId), attempt: .queueOnly, uploadProgress: { _, _, _ in }).messageId
                            ?? 0, accountId, nil
                    ))
            }
            for group in groups {
                sent.append(
                    (
                        try await client.send(draft, to: .group(group.id), attempt: .queueOnly, uploadProgress: { _, _, _ in }).messageId
                            ?? 0, nil, group
                    ))
            }
        } catch {
            // What was queued carries its files; the rest go now.
            if sent.isEmpty { staging.discard(files) } else { staging.track(files, carriedBy: sent.map(\.id)) }
            throw error
        }
        staging.track(files, carriedBy: sent.map(\.id))
        _ = try await client.sendQueued(attempt: .dueJobs, uploadProgress: { _, _, _ in })
        try staging.removeFinished(client)
        var results: [JSONValue] = []
        var timestamp: UInt64 = 0
        for (id, recipient, group) in sent {
            let message = try client.message(id: id)
            timestamp = timestamp == 0 ? message?.timestamp ?? 0 : timestamp
            let type = Self.resultType(message, failure: try client.failure(ofMessage: id))
            if let recipient {
                results.append(try result(for: recipient, type: type, group: nil))
            } else if let group {
                results += try memberResults(of: group, type: type)
            }
        }
        return try answer(timestamp: timestamp, results: results)
    }

    /// signal-cli's `mention` values, `START:LENGTH:RECIPIENT` each (UTF-16 offsets into the message, a recipient as
    /// ``SignalCLIAddress`` takes it), as mentions of Parley accounts.
    fileprivate func mentions(_ values: [String]) async throws -> [Mention] {
        // Bounded before each is looked up.
        guard values.count <= Mention.maximumPerMessage else {
            throw JSONRPCError.userError("At most \(Mention.maximumPerMessage) mentions per message")
        }
        return try await values.asyncMap { value in
            let parts = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let start = Int(parts[0]), let length = Int(parts[1]) else {
                throw JSONRPCError.userError("Invalid mention syntax (\(value)) expected 'start:length:recipientNumber'")
            }
            return Mention(accountId: try await SignalCLIAddress.resolve(String(parts[2]), with: client), start: start, length: length)
        }
    }

    fileprivate func sendReaction(_ p: SendReactionParameters) async throws -> JSONValue {
        guard let emoji = p.emoji else { throw JSONRPCError.userError("Emoji parameter is missing") }
        guard let target = p.targetTimestamp else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        let recipients = p.recipients
        let remove = p.remove
        let groups = try groups(p.groupIds)
        guard let author = p.targetAuthor ?? (recipients.count == 1 ? recipients[0] : nil) else {
            throw JSONRPCError.userError("Target author parameter is missing")
        }
        let message = try await message(by: author, sentAt: target)
        let accountIds = try await resolve(recipients)
        return try await delivered(
            try await client.react(emoji, to: message.id, remove: remove, attempt: .dueJobs), to: accountIds, groups: groups)
    }

    fileprivate func remoteDelete(_ p: RemoteDeleteParameters) async throws -> JSONValue {
        guard let target = p.targetTimestamp else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        // Every parameter is read, and every recipient looked up, before the delete is queued: a refusal after it would
        // invite a retry of what went out.
        let accountIds = try await resolve(p.recipients)
        let groups = try groups(p.groupIds)
        return try await delivered(
            try await client.deleteForEveryone(try ownMessage(sentAt: target).id, attempt: .dueJobs), to: accountIds, groups: groups)
    }

    fileprivate func sendReceipt(_ p: SendReceiptParameters) async throws -> JSONValue {
        guard let recipient = p.recipient else { throw JSONRPCError.userError("Recipient parameter is missing") }
        guard (p.type ?? "read") == "read" else {
            throw JSONRPCError.userError("Parley sends read receipts only, not viewed receipts")
        }
        let targets = p.targetTimestamps
        guard !targets.isEmpty else { throw JSONRPCError.userError("Target timestamp parameter is missing") }
        // Bounded before any is looked up; the sender is looked up once.
        guard targets.count <= Self.maximumTargets else {
            throw JSONRPCError.userError("At most \(Self.maximumTargets) target timestamps per call")
        }
        let authorId = try await SignalCLIAddress.resolve(recipient, with: client)
        let messages = try targets.map { try message(by: authorId, named: recipient, sentAt: $0).id }
        // These messages alone are marked read, and get read receipts: the rest of the conversation stays unread.
        _ = try await client.markRead(messageIds: messages, attempt: .dueJobs)
        return try answer(timestamp: Self.now, results: [try result(for: authorId, type: "SUCCESS", group: nil)])
    }

    /// Typing to people and to groups (each group's other members, one result per member). At most
    /// ``maximumRecipients`` in all, a group counting its members, counted before any recipient is looked up.
    fileprivate func sendTyping(_ p: SendTypingParameters) async throws -> JSONValue {
        let state: TypingAction = p.stop ? .stopped : .started
        let groups = try groups(p.groupIds)
        try Self.refuseLeft(groups)
        let recipients = p.recipients
        guard recipients.count + groups.reduce(0, { $0 + $1.members.count - 1 }) <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call, counting each group's members")
        }
        let accountIds = try await resolve(recipients)
        guard !accountIds.isEmpty || !groups.isEmpty else { throw JSONRPCError.userError("No recipients given") }
        var results: [JSONValue] = []
        for accountId in accountIds {
            let sent = try await client.sendTyping(state, to: accountId)
            results.append(try result(for: accountId, type: sent ? "SUCCESS" : "NETWORK_FAILURE", group: nil))
        }
        let own = try client.credentials().accountId
        for group in groups {
            let reached = Set(try await client.sendTyping(state, toGroup: group.id))
            for member in group.members where member != own {
                results.append(try result(for: member, type: reached.contains(member) ? "SUCCESS" : "NETWORK_FAILURE", group: group))
            }
        }
        return try answer(timestamp: Self.now, results: results)
    }

    // MARK: Groups

    fileprivate func listGroups(_ p: ListGroupsParameters) throws -> JSONValue {
        let wanted = Set(try p.groupIds.map { try GroupID(text: $0) })
        let groups = try client.groups().filter { wanted.isEmpty || wanted.contains(GroupID($0.id)) }
        let names = try client.usernames(of: groups.flatMap(\.members))
        return .array(
            groups.map { group in
                let members = group.members.map { member -> JSONValue in
                    let address = SignalCLIAddress.Address(accountId: member, username: names[member])
                    return .object(["number": .orNull(address.number), "uuid": .string(member), "isAdmin": .bool(false)])
                }
                return .object([
                    "id": .string(GroupID(group.id).base64), "name": .string(group.title), "description": .string(""),
                    "isMember": .bool(!group.left), "isBlocked": .bool(false), "messageExpirationTime": .integer(0),
                    "members": .array(members), "pendingMembers": .array([]), "requestingMembers": .array([]), "admins": .array([]),
                    "banned": .array([]), "permissionAddMember": .string("EVERY_MEMBER"), "permissionEditDetails": .string("EVERY_MEMBER"),
                    "permissionSendMessage": .string("EVERY_MEMBER"), "groupInviteLink": .null,
                ])
            })
    }

    fileprivate func updateGroup(_ p: UpdateGroupParameters) async throws -> JSONValue {
        if let expiration = p.expiration, expiration != 0 {
            throw JSONRPCError.userError("Parley cannot set a group's disappearing-message timer yet")
        }
        let adding = p.members
        let removing = p.removeMembers
        // Bounded before anything is looked up: no group holds more.
        guard adding.count <= GroupContext.maximumMembers, removing.count <= GroupContext.maximumMembers else {
            throw JSONRPCError.userError("A group has at most \(GroupContext.maximumMembers) members")
        }
        let added = try await resolve(adding)
        let removed = try await resolve(removing)
        guard let text = p.groupId else {
            let (id, _) = try await client.createGroup(title: p.name ?? "", members: added, attempt: .dueJobs)
            return .object([
                "groupId": .string(GroupID(id).base64), "timestamp": .integer(Int64(Self.now)),
                "results": .array([]),
            ])
        }
        let group = try group(text)
        let title = p.name.flatMap { $0 == group.title ? nil : $0 }
        _ = try await client.updateGroup(group.id, title: title, adding: added, removing: removed, attempt: .dueJobs)
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }

    fileprivate func quitGroup(_ p: QuitGroupParameters) async throws -> JSONValue {
        guard let text = p.groupId else { throw JSONRPCError.userError("Group id parameter is missing") }
        let group = try group(text)
        guard !group.left else { return .object([:]) }
        _ = try await client.leaveGroup(group.id, attempt: .dueJobs)
        return .object(["timestamp": .integer(Int64(Self.now)), "results": .array([])])
    }

    // MARK: People, identities, devices

    fileprivate func userStatus(_ p: GetUserStatusParameters) async throws -> JSONValue {
        let recipients = p.people
        // Bounded before any is looked up.
        guard recipients.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call")
        }
        var statuses: [JSONValue] = []
        for recipient in recipients {
            var status: [String: JSONValue] = ["recipient": .string(recipient)]
            let name = try SignalCLIAddress.parse(recipient)
            if case .username(let username) = name {
                status["number"] = .orNull(SignalCLIAddress.number(forUsername: username))
                status["username"] = .string(username)
            }
            do {
                let accountId = try await SignalCLIAddress.resolve(recipient, with: client)
                status["uuid"] = .string(accountId)
                status["isRegistered"] = .bool(true)
            } catch ParleyError.server(let error) where error.status == 404 {
                status["uuid"] = .null
                status["isRegistered"] = .bool(false)
            }
            statuses.append(.object(status))
        }
        return .array(statuses)
    }

    fileprivate func listContacts() throws -> JSONValue {
        .array(
            try client.conversations().filter { $0.groupId == nil }.map { contact in
                let address = SignalCLIAddress.Address(accountId: contact.accountId, username: contact.username)
                return .object([
                    "number": .orNull(address.number), "uuid": .string(contact.accountId),
                    "username": .orNull(contact.username), "name": .orNull(contact.username),
                    "isBlocked": .bool(false), "isArchived": .bool(false), "isHidden": .bool(false), "profileSharing": .bool(true),
                    "unregistered": .bool(false), "messageExpirationTime": .integer(Int64(contact.expireTimer)), "profile": .null,
                ])
            })
    }

    fileprivate func listIdentities(_ p: ListIdentitiesParameters) throws -> JSONValue {
        let only = p.number
        return .array(
            try client.conversations().filter { $0.groupId == nil }.compactMap { contact in
                let address = SignalCLIAddress.Address(accountId: contact.accountId, username: contact.username)
                if let only, only != address.number, only != contact.accountId { return nil }
                guard let number = try? client.safetyNumber(with: contact.accountId) else { return nil }
                return .object([
                    "number": .orNull(address.number), "uuid": .string(contact.accountId),
                    "safetyNumber": .string(Self.digitGroups(number)), "scannableSafetyNumber": .null, "fingerprint": .null,
                    "trustLevel": .string("TRUSTED_UNVERIFIED"), "addedTimestamp": .integer(0),
                ])
            })
    }

    fileprivate func trust(_ p: TrustParameters) async throws -> JSONValue {
        guard let recipient = p.recipient else { throw JSONRPCError.userError("Recipient parameter is missing") }
        let accountId = try await SignalCLIAddress.resolve(recipient, with: client)
        if let given = p.verifiedSafetyNumber {
            guard given.filter(\.isASCIIDigit) == (try client.safetyNumber(with: accountId)).filter(\.isASCIIDigit) else {
                throw JSONRPCError.userError("The given safety number does not match the one for \(recipient)")
            }
        } else if !p.trustAllKnownKeys {
            throw JSONRPCError.userError("You need to specify a safety number (verifiedSafetyNumber) or trustAllKnownKeys")
        }
        try client.acceptIdentity(of: accountId)
        return .object([:])
    }

    fileprivate func listDevices() async throws -> JSONValue {
        .array(
            try await client.devices().map { device in
                .object([
                    "id": .integer(Int64(device.deviceId)), "name": .orNull(device.name),
                    "createdTimestamp": .integer(Int64(device.created)), "lastSeenTimestamp": .integer(Int64(device.created)),
                ])
            })
    }

    fileprivate func removeDevice(_ p: RemoveDeviceParameters) async throws -> JSONValue {
        guard let id = p.deviceId, let deviceId = UInt32(exactly: id) else {
            throw JSONRPCError.userError("Device id parameter is missing")
        }
        try await client.removeDevice(deviceId)
        return .object([:])
    }

    fileprivate func addDevice(_ p: AddDeviceParameters) async throws -> JSONValue {
        // signal-cli takes the new device's sgnl:// URI; Parley's new device shows a parley://link code (`parley link`).
        guard let uri = p.uri else { throw JSONRPCError.userError("Device link uri parameter is missing") }
        let invitation: LinkInvitation
        do { invitation = try LinkInvitation(code: uri) } catch {
            throw JSONRPCError.userError("Invalid device link uri: Parley links with the parley://link?… code `parley link` shows")
        }
        try await client.approveLink(invitation)
        return .object([:])
    }

    // MARK: The PIN

    /// signal-cli's registration-lock PIN; in Parley the PIN protects the identity backup on the server.
    fileprivate func setPin(_ p: SetPinParameters) async throws -> JSONValue {
        guard let pin = p.pin, !pin.isEmpty else { throw JSONRPCError.userError("PIN parameter is missing") }
        try await client.createBackup(pin: pin)
        return .object([:])
    }

    fileprivate func removePin() async throws -> JSONValue {
        try await client.deleteBackup()
        return .object([:])
    }

    // MARK: Helpers

    /// Refuses a call naming a group this account left (before anything is queued or sent).
    private static func refuseLeft(_ groups: [GroupInfo]) throws {
        if let left = groups.first(where: \.left) {
            throw JSONRPCError.userError("Not a member of group \(left.title): this account left it")
        }
    }

    /// The group `text` names (base64 or hex id).
    fileprivate func group(_ text: String) throws -> GroupInfo {
        try groups([text])[0]
    }

    /// The groups `texts` name (base64 or hex ids), each once however often it is named; at most
    /// ``maximumRecipients``, counted before any is looked up, and the groups read once.
    fileprivate func groups(_ texts: [String]) throws -> [GroupInfo] {
        guard texts.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) groups per call")
        }
        guard !texts.isEmpty else { return [] }
        let known = Dictionary(try client.groups().map { (GroupID($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<GroupID>()
        return try texts.compactMap { text in
            let id: GroupID
            do { id = try GroupID(text: text) } catch { throw JSONRPCError.userError("Invalid group id: \(text)") }
            guard let group = known[id] else { throw JSONRPCError.userError("Group not found: \(text)") }
            return seen.insert(id).inserted ? group : nil
        }
    }

    /// The message `author` (a recipient string) sent at `timestamp`.
    fileprivate func message(by author: String, sentAt timestamp: Int64) async throws -> StoredMessage {
        try message(by: try await SignalCLIAddress.resolve(author, with: client), named: author, sentAt: timestamp)
    }

    /// The message account `authorId` (named `author` in the call) sent at `timestamp`.
    fileprivate func message(by authorId: String, named author: String, sentAt timestamp: Int64) throws -> StoredMessage {
        guard let message = try client.message(author: authorId, timestamp: try Self.timestamp(timestamp)) else {
            throw JSONRPCError.userError("Target message not found: \(author) at \(timestamp)")
        }
        return message
    }

    /// This account's message sent at `timestamp`.
    fileprivate func ownMessage(sentAt timestamp: Int64) throws -> StoredMessage {
        guard let message = try client.message(author: try client.credentials().accountId, timestamp: try Self.timestamp(timestamp)) else {
            throw JSONRPCError.userError("Target message not found: this account's message at \(timestamp)")
        }
        return message
    }

    /// The accounts `recipients` name, each once (a number and the same account's UUID are one recipient), looked up
    /// before anything is queued. At most ``maximumRecipients``, counted before any lookup.
    fileprivate func resolve(_ recipients: [String]) async throws -> [String] {
        guard recipients.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call")
        }
        var seen = Set<String>()
        return try await recipients.asyncMap { try await SignalCLIAddress.resolve($0, with: client) }.filter { seen.insert($0).inserted }
    }

    /// Answers for an act with its timestamp and the recipients it was for: `NETWORK_FAILURE` while it is still queued
    /// (it goes out later) or when it failed for good, whichever job pass ran it — the verb's or `listen`'s.
    fileprivate func delivered(_ report: SendReport, to accountIds: [String], groups: [GroupInfo]) async throws -> JSONValue {
        let timestamp = report.timestamp ?? 0
        let type = report.status == .sent ? "SUCCESS" : "NETWORK_FAILURE"
        var results: [JSONValue] = []
        for accountId in accountIds { results.append(try result(for: accountId, type: type, group: nil)) }
        for group in groups { results += try memberResults(of: group, type: type) }
        return try answer(timestamp: timestamp, results: results)
    }

    /// One entry per other member of `group` in a send result.
    fileprivate func memberResults(of group: GroupInfo, type: String) throws -> [JSONValue] {
        let own = try client.credentials().accountId
        return try group.members.filter { $0 != own }.map { try result(for: $0, type: type, group: group) }
    }

    /// signal-cli's send result; when results exist and none succeeded, its -1 error carrying the result.
    fileprivate func answer(timestamp: UInt64, results: [JSONValue]) throws -> JSONValue {
        let answer = JSONValue.object(["timestamp": .integer(Int64(timestamp)), "results": .array(results)])
        let succeeded = results.contains { if case .object(let fields) = $0 { fields["type"] == .string("SUCCESS") } else { false } }
        guard succeeded || results.isEmpty else {
            throw JSONRPCError.userError("Failed to send message", data: .object(["response": answer]))
        }
        return answer
    }

    /// One recipient's entry in a send result.
    fileprivate func result(for accountId: String, type: String, group: GroupInfo?) throws -> JSONValue {
        let address = SignalCLIAddress.Address(accountId: accountId, username: try client.usernames(of: [accountId])[accountId])
        var fields: [String: JSONValue] = [
            "recipientAddress": address.json,
            "type": .string(type),
        ]
        if let group { fields["groupId"] = .string(GroupID(group.id).base64) }
        return .object(fields)
    }

    /// The wall clock in milliseconds since 1970 (the timestamp of answers that send nothing themselves).
    static var now: UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// A timestamp parameter (milliseconds since 1970).
    /// - Throws: signal-cli's user error for a negative one.
    static func timestamp(_ value: Int64) throws -> UInt64 {
        guard let timestamp = UInt64(exactly: value) else { throw JSONRPCError.userError("Invalid timestamp \(value)") }
        return timestamp
    }

    /// signal-cli's result type for a queued message after the job pass.
    static func resultType(_ message: StoredMessage?, failure: MessageFailure?) -> String {
        switch message?.status {
        case .sent, .delivered, .read: return "SUCCESS"
        case .failed:
            if let failure, failure.reason.contains("safety number") || failure.reason.contains("untrusted") { return "IDENTITY_FAILURE" }
            return "NETWORK_FAILURE"
        default: return "NETWORK_FAILURE"  // still queued: it goes out when the server can be reached
        }
    }

    /// A safety number as signal-cli prints it: groups of five digits separated by spaces.
    static func digitGroups(_ number: String) -> String {
        number.split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
    }
}
