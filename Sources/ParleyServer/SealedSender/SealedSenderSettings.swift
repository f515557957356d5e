import Foundation
import ParleyProtocol

/// What the server signs sender certificates with: its server key, the `ServerCertificate` the trust root made for
/// that key, and how long a certificate lives.
public struct SealedSenderSettings: Sendable {
    /// The trust root's public key (clients check certificates against it).
    public let trustRoot: PublicKey
    /// The trust root's certificate for ``serverKey``.
    public let serverCertificate: ServerCertificate
    /// The key sender certificates are signed with.
    let serverKey: PrivateKey
    /// How long a sender certificate is valid (default one day, as Signal-Server's).
    public var validityMilliseconds: UInt64 = 24 * 60 * 60 * 1000
    /// Milliseconds since 1970: when certificates are issued (tests move it).
    public var clock: @Sendable () -> UInt64 = { ServerClock.milliseconds() }

    /// Settings over a server key and its certificate.
    /// - Throws: ``SealedSenderSettingsError/certificateDoesNotMatchKey`` when `serverCertificate` certifies another key,
    ///   ``SealedSenderSettingsError/certificateNotSignedByTrustRoot`` when `trustRoot` did not sign it.
    public init(trustRoot: PublicKey, serverCertificate: ServerCertificate, serverKey: PrivateKey) throws {
        guard serverCertificate.publicKey == serverKey.publicKey else { throw SealedSenderSettingsError.certificateDoesNotMatchKey }
        guard serverCertificate.isSigned(by: trustRoot) else { throw SealedSenderSettingsError.certificateNotSignedByTrustRoot }
        self.trustRoot = trustRoot
        self.serverCertificate = serverCertificate
        self.serverKey = serverKey
    }

    /// Settings with a fresh trust root and server key held only in memory: certificates then do not outlive the
    /// process, which suits tests only (`parley-server serve` keeps its keys in the data directory).
    public init() {
        let root = PrivateKey.generate()
        let serverKey = PrivateKey.generate()
        // Both were just made to match, so neither check can fail.
        try! self.init(
            trustRoot: root.publicKey,
            serverCertificate: try! ServerCertificate(keyId: 1, publicKey: serverKey.publicKey, trustRoot: root),
            serverKey: serverKey)
    }

    /// A sender certificate for device `deviceId` of the account `accountId` with identity `identityKey`, expiring
    /// ``validityMilliseconds`` from now.
    /// - Throws: ``SignalError/invalidKey(_:)`` when the stored identity key is malformed.
    func certificate(accountId: String, deviceId: UInt32, identityKey: [UInt8]) throws -> SenderCertificate {
        try SenderCertificate(
            sender: try SealedSenderAddress(e164: nil, uuidString: accountId, deviceId: deviceId),
            publicKey: try PublicKey(identityKey), expiration: clock() + validityMilliseconds,
            signerCertificate: serverCertificate, signerKey: serverKey)
    }
}
