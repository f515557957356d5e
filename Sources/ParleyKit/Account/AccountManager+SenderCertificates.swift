import Foundation
import ParleyAPI
import ParleyProtocol

/// Sealed sender's first client step: the trust root the server named at registration or link, and this device's
/// sender certificate, checked against it.
extension AccountManager {
    /// The `settings` key the trust root is kept under (base64 of the 33-byte public key).
    static let trustRootSetting = SettingsTable.trustRoot
    /// The `settings` key present when the trust root was pinned (``pinTrustRoot(base64:)``), not learned from the server.
    static let trustRootPinnedSetting = SettingsTable.trustRootPinned

    /// Keeps the trust root a registration or link response named (servers older than sender certificates name none),
    /// unless one was pinned: then the pinned one stays, and certificates from any other root are refused.
    static func keepTrustRoot(_ base64: String?, _ db: StorageTransaction) throws {
        guard let base64 else { return }
        guard let bytes = Data(base64Encoded: base64), (try? PublicKey(bytes)) != nil else {
            throw ParleyError.invalidArgument("the server's sealed-sender trust root is not a public key")
        }
        guard try SettingsTable.value(trustRootPinnedSetting, db) == nil else { return }
        try SettingsTable.set(trustRootSetting, to: base64, db)
    }

    /// Pins the sealed-sender trust root (`base64` of its public key, as `parley-server certificates show` prints it):
    /// sender certificates — this device's and those inside received messages — must lead to it, whatever the server
    /// names at registration or link. Works before registration too.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when `base64` is not a public key.
    public func pinTrustRoot(base64: String) throws {
        guard let bytes = Data(base64Encoded: base64), (try? PublicKey(bytes)) != nil else {
            throw ParleyError.invalidArgument("a trust root is the base64 of a 33-byte public key")
        }
        try database.write { db in
            try SettingsTable.set(Self.trustRootSetting, to: base64, db)
            try SettingsTable.set(Self.trustRootPinnedSetting, to: "on", db)
            // A certificate kept from before may lead to another root.
            try SettingsTable.remove(SettingsTable.senderCertificate, db)
        }
    }

    /// Asks the server for its trust root when none is known (a restore from a PIN backup, or an account restored before
    /// restores kept it, has none) and keeps it, unless one was pinned. Without it every sealed message would fail to
    /// open. A server without sealed sender (404) has none to give, and no sealed message can come from it.
    /// - Throws: ``ParleyError/Server`` when the server cannot be asked; ``ParleyError/invalidArgument(_:)`` when what it
    ///   names is not a public key; the database's errors.
    func learnTrustRootIfMissing() async throws {
        guard try database.read(Self.storedTrustRoot) == nil else { return }
        let answer: SealedSenderTrustRootResponse
        do {
            answer = try await api.sealedSenderTrustRoot()
        } catch ParleyError.server(let error) where error.status == 404 {
            return
        }
        try await database.awaitableWrite { db in try Self.keepTrustRoot(answer.trustRoot, db) }
    }

    /// The sealed-sender trust root: `pinned` when the configuration names one, else the one the server named at
    /// registration or link; `nil` when neither is known.
    public func sealedSenderTrustRoot(pinned: PublicKey? = nil) throws -> PublicKey? {
        if let pinned { return pinned }
        return try database.read(Self.storedTrustRoot)
    }

    /// The trust root the server named at registration or link, as kept in `db`; `nil` before either.
    static func storedTrustRoot(_ db: StorageTransaction) throws -> PublicKey? {
        try SettingsTable.value(trustRootSetting, db)
            .flatMap { Data(base64Encoded: $0) }.map { try PublicKey($0) }
    }

    /// A sender certificate for this device from the server, accepted only when it leads to the trust root
    /// (``sealedSenderTrustRoot(pinned:)``), is valid at `now` (the manager's clock when `nil`) and names this account,
    /// device and identity key.
    /// - Throws: ``ParleyError/notRegistered``; ``ParleyError/invalidArgument(_:)`` when no trust root is known or the
    ///   certificate fails a check; the server client's errors.
    public func senderCertificate(
        pinnedTrustRoot: PublicKey? = nil, now: UInt64? = nil
    ) async throws -> SenderCertificate {
        let now = now ?? self.now()
        guard let trustRoot = try sealedSenderTrustRoot(pinned: pinnedTrustRoot) else {
            throw ParleyError.invalidArgument("no sealed-sender trust root is known: pin one in the configuration")
        }
        let (credentials, identity) = try database.read { db in
            (try LocalAccount.credentials(db), try IdentityKeyPair(bytes: try LocalAccountTable.identityKeyPair(db) ?? Data()))
        }
        let response = try await api.deliveryCertificate(as: credentials)
        guard let bytes = Data(base64Encoded: response.certificate) else {
            throw ParleyError.invalidArgument("the server's sender certificate is not base64")
        }
        let certificate = try SenderCertificate(bytes)
        do { try certificate.check(trustRoot: trustRoot, time: now) } catch {
            throw ParleyError.invalidArgument("the server's sender certificate does not check out: \(error)")
        }
        guard certificate.senderUuid == credentials.accountId, certificate.deviceId == credentials.deviceId,
            certificate.publicKey == identity.publicKey
        else { throw ParleyError.invalidArgument("the server's sender certificate names another device or identity") }
        return certificate
    }
}
