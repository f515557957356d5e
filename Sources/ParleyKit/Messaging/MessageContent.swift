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

    /// A message for a conversation.
    public var dataMessage: DataMessage?
    /// A copy of a message this account sent from another device (so every own device shows sent messages).
    public var sentTranscript: SentTranscript?
    /// Delivery or read receipts for messages the recipient sent.
    public var receipt: Receipt?

    /// Content with one part set.
    public init(dataMessage: DataMessage? = nil, sentTranscript: SentTranscript? = nil, receipt: Receipt? = nil) {
        self.dataMessage = dataMessage
        self.sentTranscript = sentTranscript
        self.receipt = receipt
    }

    /// The padded plaintext.
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
            content.sentTranscript = SentTranscript(destinationAccountId: wire.syncMessage.sent.destinationAccountID,
                                                    message: try DataMessage(wire.syncMessage.sent.message))
        }
        if wire.hasReceiptMessage {
            guard wire.receiptMessage.timestamps.count <= Self.maximumReceiptTimestamps else {
                throw ParleyError.malformedContent("a receipt names more than \(Self.maximumReceiptTimestamps) messages")
            }
            content.receipt = Receipt(kind: wire.receiptMessage.type == .read ? "read" : "delivered",
                                      timestamps: wire.receiptMessage.timestamps)
        }
        guard content.dataMessage != nil || content.sentTranscript != nil || content.receipt != nil else {
            throw ParleyError.malformedContent("no part is set")
        }
        return content
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
        return wire
    }
}

extension DataMessage {
    init(_ wire: Parley_Content_DataMessage) throws {
        guard wire.attachments.count <= MessageContent.maximumAttachments else {
            throw ParleyError.malformedContent("more than \(MessageContent.maximumAttachments) attachments")
        }
        self.init(body: wire.hasBody ? wire.body : nil, attachments: try wire.attachments.map(AttachmentPointer.init),
                  quote: wire.hasQuote ? Quote(authorAccountId: wire.quote.authorAccountID, timestamp: wire.quote.timestamp) : nil)
    }

    func wire() throws -> Parley_Content_DataMessage {
        var wire = Parley_Content_DataMessage()
        if let body { wire.body = body }
        wire.attachments = try attachments.map { try $0.wire() }
        if let quote {
            wire.quote.authorAccountID = quote.authorAccountId
            wire.quote.timestamp = quote.timestamp
        }
        return wire
    }
}

extension AttachmentPointer {
    init(_ wire: Parley_Content_AttachmentPointer) throws {
        guard wire.key.count == 64, wire.digest.count == 32 else {
            throw ParleyError.malformedContent("an attachment key is 64 bytes and its digest 32")
        }
        guard wire.size <= UInt64(1) << 40 else { throw ParleyError.malformedContent("attachment size out of range") }
        self.init(id: wire.id, key: wire.key.base64EncodedString(), digest: wire.digest.base64EncodedString(), size: Int(wire.size),
                  contentType: wire.contentType, fileName: wire.hasFileName ? wire.fileName : nil)
    }

    func wire() throws -> Parley_Content_AttachmentPointer {
        guard let key = Data(base64Encoded: key), let digest = Data(base64Encoded: digest) else {
            throw ParleyError.invalidArgument("attachment key and digest must be base64")
        }
        var wire = Parley_Content_AttachmentPointer()
        wire.id = id
        wire.key = key
        wire.digest = digest
        wire.size = UInt64(max(0, size))
        wire.contentType = contentType
        if let fileName { wire.fileName = fileName }
        return wire
    }
}

/// A conversation message.
public struct DataMessage: Codable, Sendable, Equatable {
    /// The text (at most 2 KiB inline; longer text travels as a `text/x-signal-plain` attachment).
    public var body: String?
    /// Attachments.
    public var attachments: [AttachmentPointer]
    /// The message this one replies to.
    public var quote: Quote?

    /// A message.
    public init(body: String?, attachments: [AttachmentPointer] = [], quote: Quote? = nil) {
        self.body = body
        self.attachments = attachments
        self.quote = quote
    }
}

/// Where an encrypted attachment is and how to open it.
public struct AttachmentPointer: Codable, Sendable, Equatable {
    /// The server's attachment id.
    public var id: String
    /// The 64-byte key, base64.
    public var key: String
    /// SHA-256 of the blob, base64 (checked before decrypting).
    public var digest: String
    /// Plaintext size.
    public var size: Int
    /// MIME type.
    public var contentType: String
    /// Original file name.
    public var fileName: String?
}

/// A reply's reference to the message it answers.
public struct Quote: Codable, Sendable, Equatable {
    /// The quoted message's author.
    public var authorAccountId: String
    /// The quoted message's timestamp (with the author, its identity).
    public var timestamp: UInt64
}

/// A message sent from another device of this account.
public struct SentTranscript: Codable, Sendable, Equatable {
    /// The conversation's other account.
    public var destinationAccountId: String
    /// The message.
    public var message: DataMessage
}

/// Receipts for messages the receiving side sent.
public struct Receipt: Codable, Sendable, Equatable {
    /// `delivered` or `read`.
    public var kind: String
    /// The timestamps of the messages concerned.
    public var timestamps: [UInt64]
}
