/// `POST /v1/attachments`: the stored blob.
public struct AttachmentUploadResponse: Codable, Sendable, Equatable {
    /// The attachment id (lowercase UUID) to put in the message that references it.
    public let id: String
    /// Bytes stored.
    public let size: Int64
    /// When the server deletes it, milliseconds since 1970.
    public let expires: UInt64

    /// An upload result.
    public init(id: String, size: Int64, expires: UInt64) {
        self.id = id
        self.size = size
        self.expires = expires
    }
}
