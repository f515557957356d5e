import ParleyProtocol

/// Prints one line per message that crosses the (imaginary) network: who, type, version, size.
struct WireLog {
    private(set) var count = 0

    /// Counts messages that crossed without a line of their own (the SPQR step's summary).
    mutating func recordQuietly(_ messages: Int) { count += messages }

    mutating func record(_ message: CiphertextMessage, from sender: String, to receiver: String, note: String = "") {
        count += 1
        let bytes = message.serialize()
        let version = bytes.first.map { "v\($0 >> 4) (0x\(String($0, radix: 16)))" } ?? "?"
        let type: String
        switch message.messageType {
        case .preKey: type = "PreKeySignalMessage"
        case .whisper: type = "SignalMessage"
        case .senderKey: type = "SenderKeyMessage"
        case .plaintext: type = "Plaintext"
        }
        let line = "  #\(count) \(sender) → \(receiver): \(type), \(version), \(bytes.count) bytes"
        print(note.isEmpty ? line : "\(line)  — \(note)")
    }
}

/// A short hex prefix of `bytes`, for showing keys without printing them whole.
func shortHex(_ bytes: some Collection<UInt8>, count: Int = 8) -> String {
    bytes.prefix(count).map { byte in
        let text = String(byte, radix: 16)
        return text.count == 1 ? "0" + text : text
    }.joined() + "…"
}
