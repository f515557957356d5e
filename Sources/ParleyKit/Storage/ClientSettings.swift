/// Per-account client settings, kept in the encrypted database.
public struct ClientSettings: Sendable, Equatable, Codable {
    /// Send read receipts when the user reads messages (delivery receipts are always sent). On by default.
    public var readReceipts: Bool
    /// Send typing indicators. On by default.
    public var typingIndicators: Bool
    /// Send sealed (sealed sender: the server is not told who sends) to contacts whose profile key is known. On by
    /// default; off sends every message with this device's credentials.
    public var unidentifiedDelivery: Bool
    /// The sealed-sender trust root (base64) sender certificates must lead to; `nil` before registration.
    /// Set with ``ParleyClient/pinTrustRoot(base64:)``.
    public let sealedSenderTrustRoot: String?
    /// Whether ``sealedSenderTrustRoot`` was pinned rather than learned from the server.
    public let trustRootPinned: Bool

    init(_ db: StorageTransaction) throws {
        let values = try SettingsTable.all(db)
        readReceipts = values["read_receipts"].map { $0 == "on" } ?? true
        typingIndicators = values["typing_indicators"].map { $0 == "on" } ?? true
        unidentifiedDelivery = values["unidentified_delivery"].map { $0 == "on" } ?? true
        sealedSenderTrustRoot = values[SettingsTable.trustRoot]
        trustRootPinned = values[SettingsTable.trustRootPinned] != nil
    }

    func save(_ db: StorageTransaction) throws {
        for (key, value) in [
            ("read_receipts", readReceipts), ("typing_indicators", typingIndicators),
            ("unidentified_delivery", unidentifiedDelivery),
        ] {
            try SettingsTable.set(key, to: value ? "on" : "off", db)
        }
    }
}
