extension ParleyError {
    /// Why an attachment could not be encrypted or decrypted.
    public enum Attachment: Sendable, Equatable, CustomStringConvertible {
        /// Attachment keys are 64 bytes.
        case invalidKeyLength(Int)
        /// The blob is shorter than IV + one block + MAC, or its ciphertext is not whole blocks.
        case malformedBlob
        /// The SHA-256 of the downloaded blob is not the digest the message promised.
        case digestMismatch
        /// The HMAC over IV ‖ ciphertext does not verify.
        case macMismatch
        /// The padding is invalid or the promised plaintext size does not fit the blob.
        case badPadding
        /// Reading or writing a file failed.
        case io(String)
        /// The server sent more bytes than the attachment can have (its size, padded and encrypted).
        case tooLarge(limit: Int64)

        public var description: String {
            switch self {
            case .invalidKeyLength(let count): return "attachment keys must be 64 bytes, not \(count)"
            case .malformedBlob: return "the attachment is not a valid encrypted blob"
            case .digestMismatch: return "the attachment's digest does not match (corrupted or substituted)"
            case .macMismatch: return "the attachment's MAC does not verify"
            case .badPadding: return "the attachment's padding or size is invalid"
            case .io(let detail): return "attachment file error: \(detail)"
            case .tooLarge(let limit): return "the server sent more than the \(limit) bytes this attachment can have"
            }
        }
    }
}
