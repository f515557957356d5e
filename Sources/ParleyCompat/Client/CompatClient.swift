import Foundation
import ParleyAPI
import ParleyKit
import ParleyProtocol

/// What the compatibility layer asks of a Parley client: ParleyClient's verbs and reads, and nothing of its insides.
///
/// ``ParleyClient`` is the one implementation users run; the protocol is the layer's whole dependency on it, so the
/// layer's unit tests hand it a client that records each call and answers from a script. Every requirement is the
/// ParleyClient method of the same name and signature (see its documentation).
public protocol CompatClient: Sendable {
    // MARK: The account

    /// The registered account, if there is one.
    func account() throws -> LocalAccount?
    /// This device's credentials.
    func credentials() throws -> DeviceCredentials
    /// The account id `recipient` names (a username is looked up on the server when it is not known yet).
    func resolve(_ recipient: String) async throws -> String
    /// The usernames known for `accountIds`.
    func usernames(of accountIds: [String]) throws -> [String: String]
    /// The account's linked devices, from its server.
    func devices() async throws -> [DeviceInfo]
    /// Links the new device `invitation` names.
    func approveLink(_ invitation: LinkInvitation) async throws
    /// Unlinks device `deviceId`.
    func removeDevice(_ deviceId: UInt32) async throws
    /// Takes a username for `nickname` (``ParleyClient/setUsername(nickname:discriminator:)``).
    func setUsername(nickname: String, discriminator: String?) async throws -> Username
    /// This account's username as this device set it.
    func username() throws -> String?
    /// This account's username link (``ParleyClient/usernameLink(reset:)``).
    func usernameLink(reset: Bool) async throws -> UsernameLinkAddress
    /// Gives up the username and its link.
    func deleteUsername() async throws
    /// Stores the identity backup on the server under `pin`.
    func createBackup(pin: String) async throws
    /// Deletes the identity backup from the server.
    func deleteBackup() async throws

    // MARK: Reading

    /// A stored message by its local id.
    func message(id: Int64) throws -> StoredMessage?
    /// The message `authorAccountId` sent at `timestamp`.
    func message(author authorAccountId: String, timestamp: UInt64) throws -> StoredMessage?
    /// Why message `id` failed, if it did.
    func failure(ofMessage id: Int64) throws -> MessageFailure?
    /// Every conversation, newest first.
    func conversations() throws -> [ConversationSummary]
    /// Every group this account is or was in.
    func groups() throws -> [GroupInfo]
    /// The one-to-one conversation with `accountId`, if there is one.
    func conversationId(with accountId: String) throws -> Int64?
    /// A page of a conversation's messages.
    func history(conversationId: Int64, before: Int64?, limit: Int) throws -> MessagePage
    /// Received messages stored after local id `cursor`.
    func receivedMessages(after cursor: Int64, limit: Int) throws -> [StoredMessage]
    /// The attachments of message `messageId`.
    func attachments(ofMessage messageId: Int64) throws -> [AttachmentInfo]
    /// The attachments of received messages, newest first.
    func receivedAttachments(limit: Int) throws -> [AttachmentInfo]
    /// The safety number with `accountId`.
    func safetyNumber(with accountId: String) throws -> String

    // MARK: Acting

    /// Sends `draft` to `recipient`, as far as `attempt` asks.
    func send(
        _ draft: MessageDraft, to recipient: Recipient, attempt: DeliveryAttempt, uploadProgress: @escaping TransferProgress
    ) async throws -> SendReport
    /// Sends what is queued, as far as `attempt` asks.
    func sendQueued(attempt: DeliveryAttempt, uploadProgress: @escaping TransferProgress) async throws -> JobReport
    /// Reacts to message `messageId` with `emoji` (or takes the reaction back).
    func react(_ emoji: String, to messageId: Int64, remove: Bool, attempt: DeliveryAttempt) async throws -> SendReport
    /// Replaces the text of this account's message `messageId`.
    func edit(_ messageId: Int64, body: String, mentions: [Mention], attempt: DeliveryAttempt) async throws -> SendReport
    /// Deletes this account's message `messageId` for everyone.
    func deleteForEveryone(_ messageId: Int64, attempt: DeliveryAttempt) async throws -> SendReport
    /// Marks messages read and sends their read receipts.
    func markRead(messageIds ids: [Int64], attempt: DeliveryAttempt) async throws -> JobReport
    /// Tells `accountId` this account started or stopped typing; whether it went out.
    func sendTyping(_ action: TypingAction, to accountId: String) async throws -> Bool
    /// Tells a group's members this account started or stopped typing; the members it reached.
    func sendTyping(_ action: TypingAction, toGroup groupId: Data) async throws -> [String]
    /// Makes a group.
    func createGroup(title: String, members: [String], attempt: DeliveryAttempt) async throws -> (id: Data, report: SendReport)
    /// Renames a group, or adds or removes members.
    func updateGroup(
        _ groupId: Data, title: String?, adding: [String], removing: [String], attempt: DeliveryAttempt
    ) async throws -> SendReport
    /// Leaves a group.
    func leaveGroup(_ groupId: Data, attempt: DeliveryAttempt) async throws -> SendReport
    /// A server-stored group as this device last read it.
    func serverGroupDetails(_ groupId: Data) throws -> ServerGroupDetails
    /// Makes someone a server-stored group's administrator, or an ordinary member again.
    func setGroupAdministrator(_ groupId: Data, person: String, revoke: Bool, attempt: DeliveryAttempt) async throws -> SendReport
    /// Sets who adds members, edits details and sends in a server-stored group.
    func setGroupPermissions(
        _ groupId: Data, addMembers: ServerGroupDetails.Access?, editDetails: ServerGroupDetails.Access?,
        sendMessages: ServerGroupDetails.Access?, attempt: DeliveryAttempt
    ) async throws -> SendReport
    /// Sets how a server-stored group's invite link admits people; returns the link when it is on.
    func setGroupLink(_ groupId: Data, access: ServerGroupDetails.LinkAccess, reset: Bool, attempt: DeliveryAttempt) async throws
        -> (link: String?, report: SendReport)
    /// Bans someone from a server-stored group, or lifts the ban.
    func banFromGroup(_ groupId: Data, person: String, lift: Bool, attempt: DeliveryAttempt) async throws -> SendReport
    /// Joins (or asks to join) the group of an invite link.
    func joinGroup(link: String, attempt: DeliveryAttempt) async throws -> (id: Data, joined: Bool, report: SendReport)
    /// Trusts the identity key `accountId` has now.
    func acceptIdentity(of accountId: String) throws
    /// Fetches and processes what the server holds.
    func receive(attempt: DeliveryAttempt, maintainingKeys: Bool) async throws -> ReceiveReport

    // MARK: Files

    /// A new file in the client's private staging folder.
    func temporaryFile(named purpose: String) throws -> URL
    /// Downloads and decrypts a received attachment to `destination`.
    func downloadAttachment(
        _ attachmentId: Int64, to destination: URL, recordingIt: Bool, progress: @escaping @Sendable (Int64) -> Void
    ) async throws
    /// Deletes a received attachment from this device; whether there was one.
    func deleteReceivedAttachment(_ attachmentId: Int64) async throws -> Bool
}
