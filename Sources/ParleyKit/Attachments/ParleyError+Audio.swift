extension ParleyError {
    /// Why a file could not be read as WAV audio.
    public enum Audio: Sendable, Equatable, CustomStringConvertible {
        /// The file does not start with a RIFF/WAVE header.
        case notWAV
        /// A sample format this reader does not decode (it reads integer PCM of 8–32 bits and 32/64-bit float).
        case unsupportedFormat(String)
        /// A chunk runs past the end of the file, or the `fmt ` or `data` chunk is missing.
        case malformed(String)

        public var description: String {
            switch self {
            case .notWAV: return "not a WAV file (no RIFF/WAVE header)"
            case .unsupportedFormat(let detail): return "unsupported WAV format: \(detail)"
            case .malformed(let detail): return "malformed WAV file: \(detail)"
            }
        }
    }
}
