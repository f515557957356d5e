import Foundation
import ParleyAPI
import ParleyProtocol

/// The account lifecycle: registration, prekey uploads, one-time key refills and signed-prekey rotation.
struct AccountManager: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore
    /// The wall clock prekeys are dated and rotated by (milliseconds since 1970).
    let now: @Sendable () -> UInt64

    /// Refill one-time keys when the server holds fewer than this many of either kind.
    public static let refillThreshold = 10
    /// Rotate the signed prekey after this long (milliseconds; a week, as Signal's clients do).
    public static let signedPreKeyLifetime: UInt64 = 7 * 24 * 60 * 60 * 1000

    /// A manager for the account in `database` on the server `api` talks to, dating prekeys by `now` (milliseconds since 1970).
    public init(
        database: ParleyDatabase, api: ParleyServerClient, store: DatabaseProtocolStore,
        now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.database = database
        self.api = api
        self.store = store
        self.now = now
    }

    /// The account in the database, if any.
    public func account() throws -> LocalAccount? { try database.read(LocalAccount.fetch) }

    /// Registers `username` with a fresh identity (with the operator's `inviteToken` on a server that registers by
    /// invitation), then uploads a signed prekey, 100 one-time prekeys, 100 one-time KEM prekeys and a last-resort KEM
    /// prekey, and publishes the commitment to its profile key (for server-stored groups).
    @discardableResult
    public func register(username: String, deviceName: String? = nil, inviteToken: String? = nil) async throws -> DeviceCredentials {
        try await register(plainName: username, localName: username, deviceName: deviceName, inviteToken: inviteToken)
    }

    /// Registers without a plain name, as ``register(username:deviceName:inviteToken:)`` does otherwise: the server
    /// stores no name for the account, which goes by the username (`nickname.NN`) the caller confirms next
    /// (``ParleyClient/setUsername(nickname:discriminator:)``); until then this device calls it `localName`.
    @discardableResult
    public func registerWithoutName(localName: String, deviceName: String? = nil, inviteToken: String? = nil) async throws
        -> DeviceCredentials
    {
        try await register(plainName: nil, localName: localName, deviceName: deviceName, inviteToken: inviteToken)
    }

    private func register(plainName: String?, localName: String, deviceName: String?, inviteToken: String?) async throws
        -> DeviceCredentials
    {
        guard try account()?.credentials == nil else { throw ParleyError.invalidArgument("this database already has an account") }
        let identity = IdentityKeyPair.generate()
        let registrationId = UInt32.random(in: 1...16380)
        let password = DeviceCredentials.makePassword()
        let profileKey = ProfileKey.generate()
        try await database.awaitableWrite { [baseURL = api.baseURL] db in
            try LocalAccountTable.replace(
                serverURL: baseURL, username: localName, accountId: nil, deviceId: nil, password: password,
                identityKeyPair: identity.serialize(), registrationId: registrationId, profileKey: profileKey.bytes, db)
            if plainName == nil {
                try SettingsTable.set(SettingsTable.registeredWithoutName, to: "1", db)
            } else {
                try SettingsTable.remove(SettingsTable.registeredWithoutName, db)
            }
        }
        let response = try await api.register(
            RegisterAccountRequest(
                username: plainName, identityKey: identity.publicKey.serialize().base64EncodedString(),
                registrationId: registrationId, password: password, deviceName: deviceName, inviteToken: inviteToken,
                unidentifiedAccessKey: profileKey.accessKey.base64EncodedString()))
        try await database.awaitableWrite { db in
            try LocalAccountTable.setRegistered(accountId: response.accountId, deviceId: response.deviceId, db)
            try Self.keepTrustRoot(response.sealedSenderTrustRoot, db)
        }
        let credentials = DeviceCredentials(accountId: response.accountId, deviceId: response.deviceId, password: password)
        try await upload(oneTime: true, signed: true, lastResort: true)
        // What lets contacts add this account to server-stored groups; best effort (`maintainKeys` publishes it later).
        try? await publishProfileKeyCommitmentIfNeeded()
        return credentials
    }

    /// On the primary device: approves a new device's link code. Issues a one-time server link code, encrypts it with
    /// the account identity to the invitation's key (``ProvisioningCipher``) and leaves it at the invitation's address.
    public func approveLink(_ invitation: LinkInvitation) async throws {
        let (primary, identity, username, profileKey) = try database.read { db -> (DeviceCredentials, Data, String, Data?) in
            guard let identity = try LocalAccountTable.identityKeyPair(db), let username = try LocalAccountTable.username(db) else {
                throw ParleyError.notRegistered
            }
            return (try LocalAccount.credentials(db), identity, username, try LocalAccountTable.profileKey(db))
        }
        guard primary.deviceId == 1 else { throw ParleyError.invalidArgument("only the primary device (1) can link devices") }
        let code = try await api.issueLinkCode(as: primary)
        let message = DeviceProvisioning(
            accountId: primary.accountId, username: username,
            identityKeyPair: identity.base64EncodedString(), linkCode: code.code,
            profileKey: profileKey?.base64EncodedString())
        let envelope = try ProvisioningCipher.encrypt(Array(try JSONEncoder().encode(message)), to: invitation.publicKey)
        try await api.putProvisioningMessage(envelope, at: invitation.address, as: primary)
        // Sends ask the server for this account's devices until the new one is known (it joins when its user finishes).
        let approvedAt = now()
        try await database.awaitableWrite { db in
            try SettingsTable.set(SettingsTable.linkApprovedAt, to: String(approvedAt), db)
        }
    }

    /// On the new device: waits for the primary device to approve `invitation` (polling the server every
    /// `pollInterval`, up to `timeout`), then joins the account with the link code inside, stores the account with
    /// its identity in this database and uploads this device's prekeys.
    ///
    /// - Throws: ``ParleyError/Provisioning/timedOut`` when nothing arrived in time; other ``ParleyError/Provisioning``s when the
    ///   envelope does not decrypt under the invitation's key.
    @discardableResult
    public func completeLink(
        _ invitation: LinkInvitation, deviceName: String? = nil,
        pollInterval: Duration = .seconds(1), timeout: Duration = .seconds(600)
    ) async throws -> DeviceCredentials {
        guard let privateKey = invitation.privateKey else {
            throw ParleyError.invalidArgument("only the device that made the invitation can complete it")
        }
        guard try account()?.credentials == nil else { throw ParleyError.invalidArgument("this database already has an account") }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var envelope = try await api.takeProvisioningMessage(at: invitation.address)
        while envelope == nil {
            guard clock.now < deadline else { throw ParleyError.provisioning(.timedOut) }
            try await Task.sleep(for: pollInterval)
            envelope = try await api.takeProvisioningMessage(at: invitation.address)
        }
        let message = try DeviceProvisioning.decode(try ProvisioningCipher.decrypt(envelope ?? [], with: privateKey))
        guard let identity = Data(base64Encoded: message.identityKeyPair), (try? IdentityKeyPair(bytes: identity)) != nil else {
            throw ParleyError.provisioning(.malformedMessage("identity key pair does not parse"))
        }
        let registrationId = UInt32.random(in: 1...16380)
        let password = DeviceCredentials.makePassword()
        let linked = try await api.link(
            LinkDeviceRequest(
                code: message.linkCode, registrationId: registrationId, password: password,
                deviceName: deviceName))
        guard linked.accountId == message.accountId else {
            throw ParleyError.provisioning(.malformedMessage("the link code belongs to another account than the message names"))
        }
        try await database.awaitableWrite { [baseURL = api.baseURL] db in
            try LocalAccountTable.replace(
                serverURL: baseURL, username: message.username, accountId: linked.accountId, deviceId: linked.deviceId,
                password: password, identityKeyPair: identity, registrationId: registrationId,
                profileKey: try message.profileKey.flatMap { Data(base64Encoded: $0) }.map { try ProfileKey(bytes: $0).bytes }, db)
            try Self.keepTrustRoot(linked.sealedSenderTrustRoot, db)
        }
        try await upload(oneTime: true, signed: true, lastResort: true)
        return DeviceCredentials(accountId: linked.accountId, deviceId: linked.deviceId, password: password)
    }

    /// Adds a new device to this (primary) account and sets up `newDatabase` as that device, both on this machine:
    /// the same provisioning exchange as across machines (``LinkInvitation``, ``approveLink(_:)``,
    /// ``completeLink(_:deviceName:pollInterval:timeout:)``), run from both ends in one process.
    @discardableResult
    public func linkNewDevice(database newDatabase: ParleyDatabase, name: String? = nil) async throws -> DeviceCredentials {
        let invitation = LinkInvitation.create()
        try await approveLink(invitation)
        return try await AccountManager(database: newDatabase, api: api, store: store, now: now)
            .completeLink(invitation, deviceName: name, pollInterval: .milliseconds(50), timeout: .seconds(30))
    }

    /// Uploads another batch of one-time keys when the server is running low; returns whether it did.
    @discardableResult
    public func refillPreKeysIfNeeded() async throws -> Bool {
        let credentials = try database.read(LocalAccount.credentials)
        let counts = try await api.preKeyCount(as: credentials)
        guard counts.count < Self.refillThreshold || counts.kemCount < Self.refillThreshold else { return false }
        try await upload(oneTime: true, signed: false, lastResort: false)
        return true
    }

    /// Replaces the signed prekey when the newest one is older than ``signedPreKeyLifetime``; returns whether it did.
    @discardableResult
    public func rotateSignedPreKeyIfDue(now: UInt64? = nil) async throws -> Bool {
        let now = now ?? self.now()
        let newest = try database.read { [store] db in try store.newestSignedPreKeyCreation(in: db) } ?? 0
        guard now >= newest + Self.signedPreKeyLifetime else { return false }
        try await upload(oneTime: false, signed: true, lastResort: true, now: now)
        return true
    }

    /// Generates the keys asked for, stores their private halves and uploads the public ones (also after a backup
    /// restore, ``KeyBackup``).
    func upload(oneTime: Bool, signed: Bool, lastResort: Bool, now: UInt64? = nil) async throws {
        let now = now ?? self.now()
        let (credentials, request) = try await database.awaitableWrite { [store] db in
            (
                try LocalAccount.credentials(db),
                try PreKeyGenerator.generate(db, store: store, oneTime: oneTime, signed: signed, lastResort: lastResort, now: now)
            )
        }
        try await api.uploadKeys(request, as: credentials)
    }
}
