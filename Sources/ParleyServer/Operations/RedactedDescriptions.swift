import Foundation

// What the server's configuration and services print as. ServiceLifecycle logs every service by its description at
// debug level, and Swift's default description of a struct prints every stored property — here the PIN backups' OPRF
// key, the decoy key and the operator token. These say what the value is without any secret.

extension MaintenanceService: CustomStringConvertible {
    /// The type's name only.
    public var description: String { "MaintenanceService" }
}

extension MailboxChangeListener: CustomStringConvertible {
    /// The type's name only.
    public var description: String { "MailboxChangeListener" }
}

extension AccountChangeListener: CustomStringConvertible {
    /// The type's name only.
    public var description: String { "AccountChangeListener" }
}

extension SealedSenderSettings: CustomStringConvertible {
    /// The trust root and the certificate's validity; never the server's signing key.
    public var description: String {
        "SealedSenderSettings(trustRoot: \(trustRoot.serialize().base64EncodedString()), validityMilliseconds: \(validityMilliseconds), "
            + "serverKey: <redacted>)"
    }
}

extension GRPCKeyServer: CustomStringConvertible {
    /// The type's name only.
    public var description: String { "GRPCKeyServer" }
}

extension BackupSettings: CustomStringConvertible {
    /// The guess limits; never the OPRF key.
    public var description: String {
        "BackupSettings(maximumFailures: \(maximumFailures), attemptsPerWindow: \(attemptsPerWindow), oprfKey: <redacted>)"
    }
}

extension ContentDetectionSettings: CustomStringConvertible {
    /// The policy; never the decoy key or the operator token.
    public var description: String {
        "ContentDetectionSettings(strictSeen: \(strictSeen), operatorToken: \(operatorToken == nil ? "none" : "<redacted>"), decoyKey: <redacted>)"
    }
}
