import Foundation
import ParleyProtocol

/// A conversation message: text and attachments, or one of the message kinds that act on earlier messages
/// (a reaction, an edit, a delete for everyone) or on the conversation (a disappearing-message timer change).
public struct DataMessage: Codable, Sendable, Equatable {
    /// Longest body accepted on receipt (UTF-8 bytes; longer text travels as a `text/x-signal-plain` attachment).
    public static let maximumBodyBytes = 64 * 1024

    /// The text (at most 2 KiB inline when sent by Parley; longer text travels as an attachment).
    public var body: String?
    /// The accounts the text mentions (ranges of ``body``).
    public var mentions: [Mention]
    /// Attachments.
    public var attachments: [AttachmentPointer]
    /// The message this one replies to.
    public var quote: Quote?
    /// A reaction to an earlier message (then there is no body).
    public var reaction: Reaction?
    /// Delete for everyone: the timestamp of the sender's own earlier message.
    public var deleteTarget: UInt64?
    /// Edit: the timestamp of the sender's own earlier message whose body this message's body replaces.
    public var editTarget: UInt64?
    /// The conversation's disappearing-message timer in seconds (0: messages do not disappear).
    public var expireTimer: UInt32
    /// The message only announces ``expireTimer`` (no body).
    public var isTimerUpdate: Bool
    /// The group it belongs to; `nil` for the 1:1 conversation.
    public var group: GroupContext?
    /// The sender's profile key (32 bytes), which lets the receiver send to the sender sealed (``ProfileKey``).
    /// ParleyKit's send pipeline fills it in; a received one of another length is dropped.
    public var profileKey: Data?
    /// The sender's username (`nickname.NN`), a claim the receiver checks against the username's hash before showing it
    /// (the server stores no name for an account that goes by a username). ParleyKit's send pipeline fills it in; a
    /// received one that is no valid username is dropped.
    public var senderUsername: String?

    /// Whether the message only tells a server-stored group's members that the group changed: a group context with
    /// its master key and nothing else (no text, attachments, quote, act or timer).
    public var isServerGroupNotice: Bool {
        group?.isServerStored == true && body == nil && attachments.isEmpty && quote == nil && reaction == nil && deleteTarget == nil
            && editTarget == nil && !isTimerUpdate
    }

    /// A message.
    public init(
        body: String?, mentions: [Mention] = [], attachments: [AttachmentPointer] = [], quote: Quote? = nil,
        reaction: Reaction? = nil, deleteTarget: UInt64? = nil, editTarget: UInt64? = nil, expireTimer: UInt32 = 0,
        isTimerUpdate: Bool = false, group: GroupContext? = nil
    ) {
        self.body = body
        self.mentions = mentions
        self.attachments = attachments
        self.quote = quote
        self.reaction = reaction
        self.deleteTarget = deleteTarget
        self.editTarget = editTarget
        self.expireTimer = expireTimer
        self.isTimerUpdate = isTimerUpdate
        self.group = group
    }

    init(_ wire: Parley_Content_DataMessage) throws {
        guard wire.attachments.count <= MessageContent.maximumAttachments else {
            throw ParleyError.malformedContent("more than \(MessageContent.maximumAttachments) attachments")
        }
        guard !wire.hasBody || wire.body.utf8.count <= Self.maximumBodyBytes else {
            throw ParleyError.malformedContent("a body longer than \(Self.maximumBodyBytes) bytes")
        }
        guard wire.bodyRanges.count <= Mention.maximumPerMessage else {
            throw ParleyError.malformedContent("more than \(Mention.maximumPerMessage) mentions")
        }
        // As Signal's apps do, a range that does not fit the text or names no account is dropped, not the message.
        let units = wire.hasBody ? wire.body.utf16.count : 0
        let mentions = wire.bodyRanges.map(Mention.init).filter { $0.fits(units) && $0.namesAnAccount }
        self.init(
            body: wire.hasBody ? wire.body : nil, mentions: mentions, attachments: try wire.attachments.map(AttachmentPointer.init),
            quote: wire.hasQuote ? Quote(authorAccountId: wire.quote.authorAccountID, timestamp: wire.quote.timestamp) : nil,
            reaction: wire.hasReaction ? try Reaction(wire.reaction) : nil,
            deleteTarget: wire.hasDelete ? wire.delete.targetTimestamp : nil,
            editTarget: wire.hasEdit ? wire.edit.targetTimestamp : nil,
            expireTimer: wire.expireTimer,
            isTimerUpdate: wire.flags & UInt32(Parley_Content_DataMessage.Flags.expirationTimerUpdate.rawValue) != 0,
            group: wire.hasGroup ? try GroupContext(wire.group) : nil)
        profileKey = wire.profileKey.count == ProfileKey.length ? wire.profileKey : nil
        // Bounded before it is parsed; the receiver checks the claim itself (``ParleyClient/names(of:)``).
        senderUsername =
            wire.senderUsername.utf8.count <= Self.maximumUsernameBytes ? (try? Username(wire.senderUsername))?.value : nil
        let acts = [reaction != nil, deleteTarget != nil, editTarget != nil, isTimerUpdate, group?.state != nil].filter { $0 }.count
        guard acts <= 1 else {
            throw ParleyError.malformedContent("a message is at most one of reaction, delete, edit, timer update, group change")
        }
        if reaction != nil || deleteTarget != nil || isTimerUpdate || group?.state != nil, body != nil || !attachments.isEmpty {
            throw ParleyError.malformedContent("a reaction, delete or timer update carries no body or attachments")
        }
        guard expireTimer <= Self.maximumExpireTimer else { throw ParleyError.malformedContent("a timer longer than a year") }
        try MessageContent.checkTimestamps(
            [quote?.timestamp, deleteTarget, editTarget, reaction?.targetTimestamp].compactMap { $0 },
            of: "a message")
    }

    /// Longest username accepted in ``senderUsername``: a 32-character nickname, a dot and a discriminator.
    static let maximumUsernameBytes = 64

    /// Longest disappearing-message timer: one year, in seconds.
    public static let maximumExpireTimer: UInt32 = 365 * 24 * 3600

    func wire() throws -> Parley_Content_DataMessage {
        var wire = Parley_Content_DataMessage()
        if let body { wire.body = body }
        wire.bodyRanges = mentions.map { $0.wire() }
        wire.attachments = try attachments.map { try $0.wire() }
        if let quote {
            wire.quote.authorAccountID = quote.authorAccountId
            wire.quote.timestamp = quote.timestamp
        }
        if let reaction { wire.reaction = reaction.wire() }
        if let deleteTarget { wire.delete.targetTimestamp = deleteTarget }
        if let editTarget { wire.edit.targetTimestamp = editTarget }
        wire.expireTimer = expireTimer
        if isTimerUpdate { wire.flags = UInt32(Parley_Content_DataMessage.Flags.expirationTimerUpdate.rawValue) }
        if let group { wire.group = group.wire() }
        if let profileKey { wire.profileKey = profileKey }
        if let senderUsername { wire.senderUsername = senderUsername }
        return wire
    }
}

extension DataMessage {
    /// Decodes a message as queued jobs keep it; `mentions` may be missing (jobs queued before mentions existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            body: try container.decodeIfPresent(String.self, forKey: .body),
            mentions: try container.decodeIfPresent([Mention].self, forKey: .mentions) ?? [],
            attachments: try container.decode([AttachmentPointer].self, forKey: .attachments),
            quote: try container.decodeIfPresent(Quote.self, forKey: .quote),
            reaction: try container.decodeIfPresent(Reaction.self, forKey: .reaction),
            deleteTarget: try container.decodeIfPresent(UInt64.self, forKey: .deleteTarget),
            editTarget: try container.decodeIfPresent(UInt64.self, forKey: .editTarget),
            expireTimer: try container.decode(UInt32.self, forKey: .expireTimer),
            isTimerUpdate: try container.decode(Bool.self, forKey: .isTimerUpdate),
            group: try container.decodeIfPresent(GroupContext.self, forKey: .group))
        profileKey = try container.decodeIfPresent(Data.self, forKey: .profileKey)
        senderUsername = try container.decodeIfPresent(String.self, forKey: .senderUsername)
    }
}
