import Foundation

/// An encrypted message ready to send, with its type (libsignal's `CiphertextMessage`).
public struct CiphertextMessage: Sendable {
    /// The kinds of message, with libsignal's numeric values.
    public enum MessageType: UInt8, Sendable {
        /// A ``SignalMessage`` on an established session.
        case whisper = 2
        /// A ``PreKeySignalMessage`` that sets up a session.
        case preKey = 3
        /// A ``SenderKeyMessage`` for a group.
        case senderKey = 7
        /// Unencrypted content (decryption-error reports).
        case plaintext = 8
    }

    /// What kind of message this is.
    public let messageType: MessageType
    let bytes: [UInt8]

    /// Wraps a ``SignalMessage``.
    public init(_ message: SignalMessage) {
        messageType = .whisper
        bytes = message.serialized
    }

    /// Wraps a ``PreKeySignalMessage``.
    public init(_ message: PreKeySignalMessage) {
        messageType = .preKey
        bytes = message.serialized
    }

    /// Wraps a ``SenderKeyMessage``.
    public init(_ message: SenderKeyMessage) {
        messageType = .senderKey
        bytes = message.serialized
    }

    /// Wraps unencrypted content (a retry receipt).
    public init(_ plaintextContent: PlaintextContent) {
        messageType = .plaintext
        bytes = plaintextContent.serialized
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(bytes) }
}
