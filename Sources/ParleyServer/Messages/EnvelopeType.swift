/// The kinds of ciphertext a mailbox accepts: `CiphertextMessage.MessageType`'s raw values (libsignal's wire numbers).
enum EnvelopeType: UInt8, Sendable, CaseIterable {
    /// A Double Ratchet message (`SignalMessage`).
    case whisper = 2
    /// A session-establishing message (`PreKeySignalMessage`).
    case preKey = 3
    /// A Sender Key group message.
    case senderKey = 7
    /// Unencrypted content (`PlaintextContent`: retry receipts).
    case plaintext = 8
}
