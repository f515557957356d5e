import Foundation
import ParleyAPI

extension EphemeralEvent {
    /// Checks what a client sent: a kind of 1…32 ASCII token characters (bytes, not characters: one character can hold
    /// any number of combining marks, and the kind is relayed to every device of the destination), a destination of at
    /// most 64 bytes, a timestamp a signed 64-bit integer holds, base64 content of at most `limits.ephemeralContentBytes`.
    /// - Throws: ``ServerError/badRequest(_:)`` saying what is wrong.
    func check(limits: ServerLimits) throws {
        guard (1...32).contains(kind.utf8.count), kind.isASCIIToken else {
            throw ServerError.badRequest("an ephemeral event needs a kind of 1…32 ASCII letters, digits, '-', '_' or '.'")
        }
        guard (1...64).contains(destinationAccountId.utf8.count) else {
            throw ServerError.badRequest("an ephemeral event names its destination account (at most 64 bytes)")
        }
        guard timestamp <= UInt64(Int64.max) else { throw ServerError.badRequest("timestamp is out of range") }
        guard let decoded = Data(base64Encoded: content), decoded.count <= limits.ephemeralContentBytes else {
            throw ServerError.badRequest("ephemeral content must be base64 of at most \(limits.ephemeralContentBytes) bytes")
        }
    }
}
