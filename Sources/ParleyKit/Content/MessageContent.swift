import Foundation
import SwiftProtobuf

/// What travels inside a Signal ciphertext between Parley clients (the server never sees it): the versioned
/// protobuf `parley.content.Content` (`Protos/ParleyKit/Content.proto`, documented in docs/CONTENT.md), padded to
/// 160-byte blocks with Signal's `0x80 00…` scheme so lengths leak little.
public struct MessageContent: Codable, Sendable, Equatable {
    /// The format version this client writes and the newest it reads.
    public static let version: UInt32 = 1
    /// Attachments one message may carry.
    public static let maximumAttachments = 100
    /// Timestamps one receipt may name.
    public static let maximumReceiptTimestamps = 1000
    /// The latest timestamp content may name (milliseconds since 1970): the largest a signed 64-bit database column
    /// holds. A quote, reaction, edit, delete or receipt naming a later one is malformed.
    public static let maximumTimestamp = UInt64(Int64.max)

    /// A message for a conversation.
    public var dataMessage: DataMessage?
    /// A copy of a message this account sent from another device (so every own device shows sent messages).
    public var sentTranscript: SentTranscript?
    /// Delivery or read receipts for messages the recipient sent.
    public var receipt: Receipt?
    /// The sender started or stopped typing (sent as an ephemeral event, never stored by the server).
    public var typing: TypingAction?
    /// The group ``typing`` is about (its 16-byte id); `nil`: the 1:1 chat with the receiver. Written only with
    /// ``typing``.
    public var typingGroupId: Data?
    /// The sender's key for a group.
    public var senderKeyDistribution: SenderKeyDistribution?

    /// Content with one part set.
    public init(
        dataMessage: DataMessage? = nil, sentTranscript: SentTranscript? = nil, receipt: Receipt? = nil,
        typing: TypingAction? = nil, typingGroupId: Data? = nil, senderKeyDistribution: SenderKeyDistribution? = nil
    ) {
        self.dataMessage = dataMessage
        self.sentTranscript = sentTranscript
        self.receipt = receipt
        self.typing = typing
        self.typingGroupId = typingGroupId
        self.senderKeyDistribution = senderKeyDistribution
    }

    /// The padded plaintext.
    /// This content with `profileKey` in its data message or sent transcript (contacts and this account's other
    /// devices learn the key from it) and `username` in its data message (contacts name the account by it once its hash
    /// checks out); unchanged when there is neither or no message to carry them.
    func sharing(_ profileKey: ProfileKey?, username: String? = nil) -> MessageContent {
        var content = self
        if let profileKey {
            content.dataMessage?.profileKey = profileKey.bytes
            content.sentTranscript?.message.profileKey = profileKey.bytes
        }
        if let username { content.dataMessage?.senderUsername = username }
        return content
    }

    func encode() throws -> [UInt8] {
        var bytes: [UInt8] = try wire().serializedBytes()
        bytes.append(0x80)
        let padded = (bytes.count + 159) / 160 * 160
        bytes += [UInt8](repeating: 0, count: padded - bytes.count)
        return bytes
    }

    /// Content from a padded plaintext.
    ///
    /// - Throws: ``ParleyError/malformedContent(_:)`` without the padding terminator, for bytes that are not the
    ///   protobuf, a version newer than ``version``, content with no part set, or counts and sizes out of bounds.
    static func decode(_ plaintext: [UInt8]) throws -> MessageContent {
        guard let end = plaintext.lastIndex(where: { $0 != 0 }), plaintext[end] == 0x80 else {
            throw ParleyError.malformedContent("no padding terminator")
        }
        let wire: Parley_Content_Content
        do {
            wire = try Parley_Content_Content(serializedBytes: Array(plaintext[..<end]))
        } catch {
            throw ParleyError.malformedContent("not a Content protobuf (\(error))")
        }
        guard (1...Self.version).contains(wire.version) else { throw ParleyError.malformedContent("unknown version \(wire.version)") }
        var content = MessageContent()
        if wire.hasDataMessage { content.dataMessage = try DataMessage(wire.dataMessage) }
        if wire.hasSyncMessage, wire.syncMessage.hasSent {
            content.sentTranscript = SentTranscript(
                destinationAccountId: wire.syncMessage.sent.destinationAccountID,
                message: try DataMessage(wire.syncMessage.sent.message))
        }
        if wire.hasReceiptMessage {
            guard wire.receiptMessage.timestamps.count <= Self.maximumReceiptTimestamps else {
                throw ParleyError.malformedContent("a receipt names more than \(Self.maximumReceiptTimestamps) messages")
            }
            try Self.checkTimestamps(wire.receiptMessage.timestamps, of: "a receipt")
            content.receipt = Receipt(
                kind: wire.receiptMessage.type == .read ? "read" : "delivered",
                timestamps: wire.receiptMessage.timestamps)
        }
        if wire.hasTypingMessage {
            content.typing = wire.typingMessage.action == .stopped ? .stopped : .started
            if !wire.typingMessage.groupID.isEmpty {
                guard GroupContext.isGroupId(wire.typingMessage.groupID) else {
                    throw ParleyError.malformedContent("a typing indicator's group id is 16 or 32 bytes")
                }
                content.typingGroupId = wire.typingMessage.groupID
            }
        }
        if wire.hasSenderKeyDistribution { content.senderKeyDistribution = try SenderKeyDistribution(wire.senderKeyDistribution) }
        guard
            content.dataMessage != nil || content.sentTranscript != nil || content.receipt != nil || content.typing != nil
                || content.senderKeyDistribution != nil
        else {
            throw ParleyError.malformedContent("no part is set")
        }
        return content
    }

    /// - Throws: ``ParleyError/malformedContent(_:)`` when one of `timestamps` is later than ``maximumTimestamp``.
    static func checkTimestamps(_ timestamps: [UInt64], of what: String) throws {
        guard timestamps.allSatisfy({ $0 <= maximumTimestamp }) else {
            throw ParleyError.malformedContent("\(what) names a timestamp later than \(maximumTimestamp) ms")
        }
    }

    private func wire() throws -> Parley_Content_Content {
        var wire = Parley_Content_Content()
        wire.version = Self.version
        if let dataMessage { wire.dataMessage = try dataMessage.wire() }
        if let sentTranscript {
            wire.syncMessage.sent.destinationAccountID = sentTranscript.destinationAccountId
            wire.syncMessage.sent.message = try sentTranscript.message.wire()
        }
        if let receipt {
            wire.receiptMessage.type = receipt.kind == "read" ? .read : .delivery
            wire.receiptMessage.timestamps = receipt.timestamps
        }
        if let typing {
            wire.typingMessage.action = typing == .stopped ? .stopped : .started
            if let typingGroupId { wire.typingMessage.groupID = typingGroupId }
        }
        if let senderKeyDistribution { wire.senderKeyDistribution = senderKeyDistribution.wire() }
        return wire
    }
}
