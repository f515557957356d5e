/// The version byte that starts every Signal message: `(messageVersion << 4) | currentVersion`.
enum MessageVersion {
    /// X3DH sessions and Signal's C library; also the sender-key wire format.
    static let x3dh: UInt8 = 3
    /// PQXDH sessions.
    static let pqxdh: UInt8 = 4

    /// The byte this library writes for `version`: `0x33` for 3 (as libsignal-protocol-c), `0x44` for 4 (as libsignal).
    static func byte(for version: UInt8) -> UInt8 { (version << 4) | version }

    /// Reads the message version from the high nibble of `byte`.
    /// - Throws: ``SignalError/legacyCiphertextVersion(_:)`` below 3, ``SignalError/unrecognizedMessageVersion(_:)`` above 4.
    static func parse(_ byte: UInt8?) throws -> UInt8 {
        guard let byte else { throw SignalError.invalidMessage("empty message") }
        let version = byte >> 4
        if version < x3dh { throw SignalError.legacyCiphertextVersion("message version \(version)") }
        if version > pqxdh { throw SignalError.unrecognizedMessageVersion("message version \(version)") }
        return version
    }
}
