/// One attachment of a message, as shown before (and after) downloading it.
public struct AttachmentInfo: Sendable, Equatable, Codable {
    /// Local id (for ``ParleyClient/downloadAttachment(_:to:recordingIt:progress:)``).
    public let id: Int64
    /// The sender's file name.
    public let fileName: String?
    /// Plaintext size.
    public let size: Int
    /// MIME type.
    public let contentType: String?
    /// Audio or video length in milliseconds, when the sender gave it.
    public let durationMilliseconds: UInt32?
    /// Loudness samples in 0…1 for drawing a voice note (empty when none).
    public let waveform: [Float]
    /// Sent as a voice message.
    public let voiceNote: Bool
    /// `remote`, `downloaded`, `blocked`, or for sent files `pending` / `uploaded`.
    public let state: String
}
