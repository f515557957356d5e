import Foundation
import ParleyAPI
import ParleyCompat
import ParleyProtocol
import Synchronization

@testable import ParleyKit

/// A ``CompatClient`` that records every call that changes something (as one line of text each) and answers reads from
/// a small scripted account: this device is `+15550000001`, it knows Bob (`+15550000002`) and Carol (`u:carol`), and
/// tests add messages, groups and failures. The compatibility layer's unit tests check what a request asked of the
/// client, and what it answered, against it; the end-to-end suites run the same layer on a real ParleyClient.
final class RecordingClient: CompatClient {
    static let me = "aaaaaaaa-0000-4000-8000-000000000001"
    static let bob = "bbbbbbbb-0000-4000-8000-000000000002"
    static let carol = "cccccccc-0000-4000-8000-000000000003"
    /// The timestamp of the first message or act this client makes; each next one is 1 ms later.
    static let firstTimestamp: UInt64 = 1_700_000_000_000

    struct State {
        /// Every call that changes something, in order.
        var calls: [String] = []
        /// Known people: username → account id.
        var people = ["15550000001": RecordingClient.me, "15550000002": RecordingClient.bob, "carol": RecordingClient.carol]
        var messages: [StoredMessage] = []
        var groups: [GroupInfo] = []
        var devices = [DeviceInfo(deviceId: 1, name: "laptop", registrationId: 7, created: 1_600_000_000_000)]
        var receivedAttachments: [AttachmentInfo] = []
        /// The status a queued message has after a job pass (`.sent`, or `.sending` while the server is unreachable).
        var statusAfterJobs = MessageStatus.sent
        /// Thrown by the next verb that acts, then cleared.
        var failure: (any Error)?
        /// Whether typing indicators reach anyone.
        var typingReaches = true
        var nextTimestamp = RecordingClient.firstTimestamp
        var nextMessageId: Int64 = 1
        /// The username set by `setUsername`.
        var username: String?
    }

    let state = Mutex(State())

    /// What was asked of the client so far.
    var calls: [String] { state.withLock { $0.calls } }

    /// Adds a message to the script; returns it.
    @discardableResult
    func add(
        from author: String, at timestamp: UInt64, body: String = "hello", outgoing: Bool? = nil, status: MessageStatus? = nil,
        conversationId: Int64 = 1
    ) -> StoredMessage {
        state.withLock { state in
            let outgoing = outgoing ?? (author == Self.me)
            let message = Self.message(
                id: state.nextMessageId, outgoing: outgoing, author: author, timestamp: timestamp, body: body,
                status: status ?? (outgoing ? .sent : .received), conversationId: conversationId)
            state.nextMessageId += 1
            state.messages.append(message)
            return message
        }
    }

    /// Adds a group with `members` (this account among them unless `left`); returns it.
    @discardableResult
    func addGroup(_ title: String, id: Data, members: [String], left: Bool = false, serverStored: Bool = false) -> GroupInfo {
        var group = GroupInfo(
            id: id, conversationId: Int64(100 + state.withLock { $0.groups.count }), title: title,
            members: left ? members : [Self.me] + members, revision: 1, left: left)
        group.serverStored = serverStored
        state.withLock { $0.groups.append(group) }
        return group
    }

    static func message(
        id: Int64, outgoing: Bool, author: String, timestamp: UInt64, body: String?, status: MessageStatus, conversationId: Int64
    ) -> StoredMessage {
        StoredMessage(
            id: id, outgoing: outgoing, authorAccountId: author, timestamp: timestamp, body: body, mentions: [], status: status,
            failureReason: status == .failed ? "the server refused it" : nil, replyToId: nil, attachmentCount: 0, kind: .message,
            editedAt: nil, deleted: false, expireTimer: 0, expiresAt: nil, sealed: true, conversationId: conversationId, authorDeviceId: 1,
            authorUsername: nil, serverTimestamp: nil, reactions: [])
    }

    // MARK: Recording

    /// Records `call`, throwing the scripted failure instead when there is one.
    private func record(_ call: String) throws {
        try state.withLock { state in
            if let failure = state.failure {
                state.failure = nil
                throw failure
            }
            state.calls.append(call)
        }
    }

    private func nextTimestamp() -> UInt64 {
        state.withLock { state in
            defer { state.nextTimestamp += 1 }
            return state.nextTimestamp
        }
    }

    private func report(timestamp: UInt64) -> SendReport {
        let status = state.withLock { $0.statusAfterJobs }
        return SendReport(timestamp: timestamp, status: status == .sent ? .sent : .queued)
    }

    // MARK: The account

    func account() throws -> LocalAccount? {
        LocalAccount(serverURL: "http://127.0.0.1:1", username: "15550000001", credentials: try credentials(), registrationId: 7)
    }

    func credentials() throws -> DeviceCredentials { DeviceCredentials(accountId: Self.me, deviceId: 1, password: "secret") }

    func resolve(_ recipient: String) async throws -> String {
        if UUID(uuidString: recipient) != nil { return recipient.lowercased() }
        guard let id = state.withLock({ $0.people[recipient] }) else {
            throw ParleyError.server(.rejected(status: 404, body: nil))
        }
        return id
    }

    func usernames(of accountIds: [String]) throws -> [String: String] {
        let people = state.withLock { $0.people }
        return Dictionary(uniqueKeysWithValues: people.filter { accountIds.contains($0.value) }.map { ($0.value, $0.key) })
    }

    func devices() async throws -> [DeviceInfo] { state.withLock { $0.devices } }

    func approveLink(_ invitation: LinkInvitation) async throws { try record("approveLink(\(invitation.address))") }

    func removeDevice(_ deviceId: UInt32) async throws { try record("removeDevice(\(deviceId))") }

    func setUsername(nickname: String, discriminator: String?) async throws -> Username {
        try record("setUsername(\(nickname), \(discriminator ?? "random"))")
        let username = try Username("\(nickname).\(discriminator ?? "42")")
        state.withLock { $0.username = username.value }
        return username
    }

    func username() throws -> String? { state.withLock { $0.username } }

    func usernameLink(reset: Bool) async throws -> UsernameLinkAddress {
        try record("usernameLink(reset: \(reset))")
        return UsernameLinkAddress(entropy: Data(repeating: 1, count: 32), handle: UUID(uuidString: Self.carol)!)
    }

    func deleteUsername() async throws {
        try record("deleteUsername()")
        state.withLock { $0.username = nil }
    }

    func createBackup(pin: String) async throws { try record("createBackup(pin: \(pin))") }

    func deleteBackup() async throws { try record("deleteBackup()") }

    // MARK: Reading

    func message(id: Int64) throws -> StoredMessage? { state.withLock { $0.messages.first { $0.id == id } } }

    func message(author authorAccountId: String, timestamp: UInt64) throws -> StoredMessage? {
        state.withLock { $0.messages.first { $0.authorAccountId == authorAccountId && $0.timestamp == timestamp } }
    }

    func failure(ofMessage id: Int64) throws -> MessageFailure? {
        try message(id: id).flatMap { $0.status == .failed ? MessageFailure.notSent(reason: $0.failureReason ?? "") : nil }
    }

    func conversations() throws -> [ConversationSummary] {
        [
            ConversationSummary(
                conversationId: 1, accountId: Self.bob, username: "15550000002", groupId: nil, title: nil, lastMessagePreview: "hello",
                unreadCount: 1, updated: Self.firstTimestamp, mutedUntil: 0, expireTimer: 0),
            ConversationSummary(
                conversationId: 2, accountId: Self.carol, username: "carol", groupId: nil, title: nil, lastMessagePreview: nil,
                unreadCount: 0,
                updated: Self.firstTimestamp, mutedUntil: 0, expireTimer: 3600),
        ]
            + state.withLock { $0.groups }.map { group in
                ConversationSummary(
                    conversationId: group.conversationId, accountId: "", username: nil, groupId: group.id, title: group.title,
                    lastMessagePreview: nil,
                    unreadCount: 0, updated: Self.firstTimestamp, mutedUntil: 0, expireTimer: 0)
            }
    }

    func groups() throws -> [GroupInfo] { state.withLock { $0.groups } }

    func conversationId(with accountId: String) throws -> Int64? {
        try conversations().first { $0.accountId == accountId && $0.groupId == nil }?.conversationId
    }

    func history(conversationId: Int64, before: Int64?, limit: Int) throws -> MessagePage {
        let messages = state.withLock { $0.messages }.filter { $0.conversationId == conversationId && $0.id < (before ?? .max) }
        return MessagePage(messages: Array(messages.suffix(limit)), nextCursor: nil)
    }

    func receivedMessages(after cursor: Int64, limit: Int) throws -> [StoredMessage] {
        Array(state.withLock { $0.messages }.filter { !$0.outgoing && $0.id > cursor }.prefix(limit))
    }

    func attachments(ofMessage messageId: Int64) throws -> [AttachmentInfo] { [] }

    func receivedAttachments(limit: Int) throws -> [AttachmentInfo] { Array(state.withLock { $0.receivedAttachments }.prefix(limit)) }

    func safetyNumber(with accountId: String) throws -> String {
        guard state.withLock({ $0.people.values.contains(accountId) }) else {
            throw ParleyError.invalidArgument("no session with \(accountId)")
        }
        return "12345 67890 12345 67890 12345 67890\n12345 67890 12345 67890 12345 67890"
    }

    // MARK: Acting

    func send(
        _ draft: MessageDraft, to recipient: Recipient, attempt: DeliveryAttempt, uploadProgress: @escaping TransferProgress
    ) async throws -> SendReport {
        let to: String =
            switch recipient {
            case .person(let name): "person \(name)"
            case .group(let id): "group \(GroupID(id).base64)"
            }
        var details = ""
        if !draft.attachments.isEmpty { details += ", \(draft.attachments.count) attachment(s)" }
        if let replyTo = draft.replyTo { details += ", replying to \(replyTo)" }
        if !draft.mentions.isEmpty { details += ", mentions \(draft.mentions.map { "\($0.start):\($0.length):\($0.accountId)" })" }
        try record("send(\(draft.body.debugDescription) to \(to)\(details), \(attempt))")
        let timestamp = nextTimestamp()
        let status = attempt == .queueOnly ? .sending : state.withLock { $0.statusAfterJobs }
        let message = add(from: Self.me, at: timestamp, body: draft.body, outgoing: true, status: status)
        return SendReport(messageId: message.id, timestamp: timestamp, status: status == .sent ? .sent : .queued)
    }

    func sendQueued(attempt: DeliveryAttempt, uploadProgress: @escaping TransferProgress) async throws -> JobReport {
        try record("sendQueued(\(attempt))")
        state.withLock { state in
            state.messages = state.messages.map { message in
                guard message.status == .sending else { return message }
                return Self.message(
                    id: message.id, outgoing: true, author: message.authorAccountId, timestamp: message.timestamp, body: message.body,
                    status: state.statusAfterJobs, conversationId: message.conversationId)
            }
        }
        return JobReport()
    }

    func react(_ emoji: String, to messageId: Int64, remove: Bool, attempt: DeliveryAttempt) async throws -> SendReport {
        try record("react(\(emoji), to: \(messageId), remove: \(remove), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func edit(_ messageId: Int64, body: String, mentions: [Mention], attempt: DeliveryAttempt) async throws -> SendReport {
        try record("edit(\(messageId), body: \(body.debugDescription), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func deleteForEveryone(_ messageId: Int64, attempt: DeliveryAttempt) async throws -> SendReport {
        try record("deleteForEveryone(\(messageId), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func markRead(messageIds ids: [Int64], attempt: DeliveryAttempt) async throws -> JobReport {
        try record("markRead(\(ids), \(attempt))")
        return JobReport()
    }

    func sendTyping(_ action: TypingAction, to accountId: String) async throws -> Bool {
        try record("sendTyping(\(action), to: \(accountId))")
        return state.withLock { $0.typingReaches }
    }

    func sendTyping(_ action: TypingAction, toGroup groupId: Data) async throws -> [String] {
        try record("sendTyping(\(action), toGroup: \(GroupID(groupId).base64))")
        guard state.withLock({ $0.typingReaches }) else { return [] }
        return try groups().first { $0.id == groupId }?.members.filter { $0 != Self.me } ?? []
    }

    func createGroup(title: String, members: [String], attempt: DeliveryAttempt) async throws -> (id: Data, report: SendReport) {
        try record("createGroup(\(title.debugDescription), members: \(members), \(attempt))")
        let id = Data(repeating: UInt8(10 + state.withLock { $0.groups.count }), count: 16)
        addGroup(title, id: id, members: members)
        return (id, report(timestamp: nextTimestamp()))
    }

    func updateGroup(
        _ groupId: Data, title: String?, adding: [String], removing: [String], attempt: DeliveryAttempt
    ) async throws -> SendReport {
        try record(
            "updateGroup(\(GroupID(groupId).base64), title: \(title.debugDescription), adding: \(adding), removing: \(removing), \(attempt))"
        )
        return report(timestamp: nextTimestamp())
    }

    func leaveGroup(_ groupId: Data, attempt: DeliveryAttempt) async throws -> SendReport {
        try record("leaveGroup(\(GroupID(groupId).base64), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func serverGroupDetails(_ groupId: Data) throws -> ServerGroupDetails {
        throw ParleyError.invalidArgument("no server-stored group \(GroupID(groupId))")
    }

    func setGroupAdministrator(_ groupId: Data, person: String, revoke: Bool, attempt: DeliveryAttempt) async throws -> SendReport {
        try record("setGroupAdministrator(\(GroupID(groupId).base64), person: \(person), revoke: \(revoke), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func setGroupPermissions(
        _ groupId: Data, addMembers: ServerGroupDetails.Access?, editDetails: ServerGroupDetails.Access?,
        sendMessages: ServerGroupDetails.Access?, attempt: DeliveryAttempt
    ) async throws -> SendReport {
        try record(
            "setGroupPermissions(\(GroupID(groupId).base64), addMembers: \(String(describing: addMembers)), editDetails: \(String(describing: editDetails)), sendMessages: \(String(describing: sendMessages)), \(attempt))"
        )
        return report(timestamp: nextTimestamp())
    }

    func setGroupLink(_ groupId: Data, access: ServerGroupDetails.LinkAccess, reset: Bool, attempt: DeliveryAttempt) async throws
        -> (link: String?, report: SendReport)
    {
        try record("setGroupLink(\(GroupID(groupId).base64), access: \(access), reset: \(reset), \(attempt))")
        return (access == .off ? nil : GroupInviteLink.prefix + "link", report(timestamp: nextTimestamp()))
    }

    func banFromGroup(_ groupId: Data, person: String, lift: Bool, attempt: DeliveryAttempt) async throws -> SendReport {
        try record("banFromGroup(\(GroupID(groupId).base64), person: \(person), lift: \(lift), \(attempt))")
        return report(timestamp: nextTimestamp())
    }

    func joinGroup(link: String, attempt: DeliveryAttempt) async throws -> (id: Data, joined: Bool, report: SendReport) {
        try record("joinGroup(\(link), \(attempt))")
        return (Data(repeating: 9, count: 32), true, report(timestamp: nextTimestamp()))
    }

    func acceptIdentity(of accountId: String) throws { try record("acceptIdentity(of: \(accountId))") }

    func receive(attempt: DeliveryAttempt, maintainingKeys: Bool) async throws -> ReceiveReport {
        try record("receive(\(attempt), maintainingKeys: \(maintainingKeys))")
        return ReceiveReport(envelopes: [], jobs: JobReport())
    }

    // MARK: Files

    func temporaryFile(named purpose: String) throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(purpose)-\(UUID().uuidString)")
    }

    func downloadAttachment(
        _ attachmentId: Int64, to destination: URL, recordingIt: Bool, progress: @escaping @Sendable (Int64) -> Void
    ) async throws {
        guard state.withLock({ $0.receivedAttachments.contains { $0.id == attachmentId } }) else {
            throw ParleyError.server(.rejected(status: 404, body: nil))
        }
        try record("downloadAttachment(\(attachmentId), recordingIt: \(recordingIt))")
        try Data("attachment \(attachmentId)".utf8).write(to: destination)
    }

    func deleteReceivedAttachment(_ attachmentId: Int64) async throws -> Bool {
        try record("deleteReceivedAttachment(\(attachmentId))")
        return state.withLock { state in
            guard state.receivedAttachments.contains(where: { $0.id == attachmentId }) else { return false }
            state.receivedAttachments.removeAll { $0.id == attachmentId }
            return true
        }
    }
}
