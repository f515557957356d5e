import Foundation

/// A file to send, with what the receiver sees before downloading it: type, and for audio a duration and waveform.
public struct OutgoingAttachment: Sendable, Equatable {
    /// The file.
    public var file: URL
    /// MIME type.
    public var contentType: String
    /// Sent as a voice message.
    public var voiceNote: Bool
    /// Audio or video length in milliseconds.
    public var durationMilliseconds: UInt32?
    /// Loudness samples in 0…1 (at most ``AttachmentPointer/maximumWaveformSamples``).
    public var waveform: [Float]

    /// An attachment; the type is guessed from the file name's extension when not given.
    ///
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a waveform longer than 100 samples or outside 0…1.
    public init(
        file: URL, contentType: String? = nil, voiceNote: Bool = false, durationMilliseconds: UInt32? = nil,
        waveform: [Float] = []
    ) throws {
        guard waveform.count <= AttachmentPointer.maximumWaveformSamples, waveform.allSatisfy({ $0.isFinite && (0...1).contains($0) })
        else {
            throw ParleyError.invalidArgument("a waveform is at most \(AttachmentPointer.maximumWaveformSamples) samples in 0…1")
        }
        self.file = file
        self.contentType = contentType ?? Self.contentType(forExtension: file.pathExtension)
        self.voiceNote = voiceNote
        self.durationMilliseconds = durationMilliseconds
        self.waveform = waveform
    }

    /// A voice note from a WAV file: its duration and waveform come from decoding the samples.
    ///
    /// - Throws: ``ParleyError/Audio`` when the file is not PCM or float WAV.
    public static func voiceNote(wav file: URL) throws -> OutgoingAttachment {
        let analysis = try WAVAnalysis(file: file)
        return try OutgoingAttachment(
            file: file, contentType: "audio/wav", voiceNote: true,
            durationMilliseconds: analysis.durationMilliseconds, waveform: analysis.waveform)
    }

    /// The MIME type of common extensions, `application/octet-stream` otherwise.
    static func contentType(forExtension fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "heic": return "image/heic"
        case "mp4", "m4v": return "video/mp4"
        case "mov": return "video/quicktime"
        case "m4a": return "audio/mp4"
        case "aac": return "audio/aac"
        case "mp3": return "audio/mpeg"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "wav": return "audio/wav"
        case "txt": return "text/plain"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
