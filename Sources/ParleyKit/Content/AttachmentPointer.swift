import Foundation

/// Where an encrypted attachment is and how to open it, with what a receiver shows before downloading it
/// (type, name, and for audio the duration and a waveform).
public struct AttachmentPointer: Codable, Sendable, Equatable {
    /// Most waveform samples a pointer may carry.
    public static let maximumWaveformSamples = 100

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
    /// Audio or video length in milliseconds.
    public var durationMilliseconds: UInt32?
    /// Loudness samples in 0…1 (at most ``maximumWaveformSamples``).
    public var waveform: [Float]
    /// Recorded as a voice message.
    public var voiceNote: Bool

    /// A pointer.
    public init(
        id: String, key: String, digest: String, size: Int, contentType: String, fileName: String?,
        durationMilliseconds: UInt32? = nil, waveform: [Float] = [], voiceNote: Bool = false
    ) {
        self.id = id
        self.key = key
        self.digest = digest
        self.size = size
        self.contentType = contentType
        self.fileName = fileName
        self.durationMilliseconds = durationMilliseconds
        self.waveform = waveform
        self.voiceNote = voiceNote
    }

    init(_ wire: Parley_Content_AttachmentPointer) throws {
        guard wire.key.count == 64, wire.digest.count == 32 else {
            throw ParleyError.malformedContent("an attachment key is 64 bytes and its digest 32")
        }
        guard wire.size <= UInt64(1) << 40 else { throw ParleyError.malformedContent("attachment size out of range") }
        guard wire.waveform.count <= Self.maximumWaveformSamples, wire.waveform.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
            throw ParleyError.malformedContent("a waveform is at most \(Self.maximumWaveformSamples) samples in 0…1")
        }
        guard wire.contentType.utf8.count <= 255, !wire.hasFileName || wire.fileName.utf8.count <= 255 else {
            throw ParleyError.malformedContent("an attachment's type and name are at most 255 bytes")
        }
        self.init(
            id: wire.id, key: wire.key.base64EncodedString(), digest: wire.digest.base64EncodedString(), size: Int(wire.size),
            contentType: wire.contentType, fileName: wire.hasFileName ? wire.fileName : nil,
            durationMilliseconds: wire.hasDurationMs ? wire.durationMs : nil, waveform: wire.waveform, voiceNote: wire.voiceNote)
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
        if let durationMilliseconds { wire.durationMs = durationMilliseconds }
        wire.waveform = waveform
        wire.voiceNote = voiceNote
        return wire
    }
}
