import Foundation

/// What travels inside a Signal ciphertext between Parley clients (the server never sees it): JSON, padded to
/// 160-byte blocks with Signal's `0x80 00…` scheme so lengths leak little.
public struct MessageContent: Codable, Sendable, Equatable {
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
        var bytes = [UInt8](try JSONEncoder().encode(self))
        bytes.append(0x80)
        let padded = (bytes.count + 159) / 160 * 160
        bytes += [UInt8](repeating: 0, count: padded - bytes.count)
        return bytes
    }

    /// Content from a padded plaintext.
    static func decode(_ plaintext: [UInt8]) throws -> MessageContent {
        guard let end = plaintext.lastIndex(where: { $0 != 0 }), plaintext[end] == 0x80 else {
            throw ParleyError.invalidArgument("message content has no padding terminator")
        }
        do {
            return try JSONDecoder().decode(MessageContent.self, from: Data(plaintext[..<end]))
        } catch {
            throw ParleyError.invalidArgument("message content does not decode: \(error)")
        }
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
