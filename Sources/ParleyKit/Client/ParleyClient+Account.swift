import Foundation
import ParleyProtocol

/// The verbs of the account on this device: registration, linking devices, the sealed-sender trust root.
extension ParleyClient {
    /// The account in the database, if any (also before registration completes).
    public func account() throws -> LocalAccount? { try accounts.account() }

    /// Registers `username` with a fresh identity (with the operator's `inviteToken` on a server that registers by
    /// invitation), then uploads a signed prekey, 100 one-time prekeys, 100 one-time KEM prekeys and a last-resort KEM
    /// prekey.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when this database already has an account; ``ParleyError/Server``
    ///   when the server refuses (the name is taken, the invitation is wrong).
    @discardableResult
    public func register(username: String, deviceName: String? = nil, inviteToken: String? = nil) async throws -> DeviceCredentials {
        try await accounts.register(username: username, deviceName: deviceName, inviteToken: inviteToken)
    }

    /// Registers without a plain name: the account goes by the username `nickname.NN` (with `discriminator`, exactly
    /// that number; without, a free random one), of which the server keeps only a hash. Returns the credentials and the
    /// username. Should the username step fail after the account exists (every candidate taken, say),
    /// ``setUsername(nickname:discriminator:)`` finishes it.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a nickname or discriminator Signal's rules refuse, before
    ///   anything is registered.
    public func register(nickname: String, discriminator: String? = nil, deviceName: String? = nil, inviteToken: String? = nil)
        async throws -> (credentials: DeviceCredentials, username: Username)
    {
        if let discriminator {
            try Self.signalRules { _ = try Username(nickname: nickname, discriminator: discriminator, withValidLengthWithin: 3...32) }
        } else {
            try Self.checkNickname(nickname)
        }
        let credentials = try await accounts.registerWithoutName(localName: nickname, deviceName: deviceName, inviteToken: inviteToken)
        return (credentials, try await setUsername(nickname: nickname, discriminator: discriminator))
    }

    /// On the primary device: approves a new device's link code (``LinkInvitation``): the account identity travels to
    /// the new device encrypted to the invitation's key, through the server, which cannot read it.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` on a device other than the primary.
    public func approveLink(_ invitation: LinkInvitation) async throws {
        try await accounts.approveLink(invitation)
    }

    /// On the new device: waits up to `timeout` for the primary device to approve `invitation`, then joins the account
    /// and uploads this device's prekeys.
    /// - Throws: ``ParleyError/Provisioning/timedOut`` when nothing arrived in time; other ``ParleyError/Provisioning``s
    ///   when what arrived does not decrypt under the invitation's key.
    @discardableResult
    public func completeLink(
        _ invitation: LinkInvitation, deviceName: String? = nil,
        timeout: Duration = .seconds(600)
    ) async throws -> DeviceCredentials {
        try await accounts.completeLink(invitation, deviceName: deviceName, timeout: timeout)
    }

    /// Pins the sealed-sender trust root (`base64` of its public key, as `parley-server certificates show` prints it):
    /// sender certificates — this device's and those inside received messages — must lead to it, whatever the server
    /// names at registration or link. Works before registration too.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when `base64` is not a public key.
    public func pinTrustRoot(base64: String) throws {
        try accounts.pinTrustRoot(base64: base64)
    }
}
