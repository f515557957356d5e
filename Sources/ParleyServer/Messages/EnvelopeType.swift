/// The kinds of ciphertext a mailbox accepts: `CiphertextMessage.MessageType`'s raw values (libsignal's wire numbers).
enum EnvelopeType: UInt8, Sendable, CaseIterable {
    /// A Double Ratchet message (`SignalMessage`).
    case whisper = 2
    /// A session-establishing message (`PreKeySignalMessage`).
    case preKey = 3
    /// A sealed-sender message (Signal's `UNIDENTIFIED_SENDER`): stored without a source; the only type a send with an
    /// unidentified access key instead of credentials may carry.
    case unidentifiedSender = 6
    /// A Sender Key group message.
    case senderKey = 7
    /// Unencrypted content (`PlaintextContent`: retry receipts).
    case plaintext = 8
}
