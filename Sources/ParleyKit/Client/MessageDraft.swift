import Foundation

/// A message to send (``ParleyClient/send(_:to:attempt:uploadProgress:)``): its text, files, the message it replies to
/// and the people its text mentions.
public struct MessageDraft: Sendable {
    /// Text longer than this (UTF-8 bytes) travels as a text attachment, with its start inline.
    public static let inlineTextLimit = MessageSender.inlineTextLimit

    /// The text (may be empty when there are files).
    public var body: String
    /// Files to encrypt and upload, with their metadata (type, voice note, duration, waveform).
    public var attachments: [OutgoingAttachment]
    /// The local id of the message this replies to.
    public var replyTo: Int64?
    /// Ranges of ``body`` naming accounts.
    public var mentions: [Mention]

    /// A draft with `body`, `attachments`, a reply to local message `replyTo` and `mentions`.
    public init(body: String, attachments: [OutgoingAttachment] = [], replyTo: Int64? = nil, mentions: [Mention] = []) {
        self.body = body
        self.attachments = attachments
        self.replyTo = replyTo
        self.mentions = mentions
    }
}
