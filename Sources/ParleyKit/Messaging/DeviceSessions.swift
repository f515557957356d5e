import Foundation
import ParleyAPI
import ParleyProtocol

/// Keeps the sessions with one account's devices in step with the server's device list: builds missing sessions
/// from prekey bundles (PQXDH when the bundle has a KEM key), drops removed devices, rebuilds stale ones.
struct DeviceSessions: Sendable {
    let database: ParleyDatabase
    let api: ParleyServerClient
    let store: DatabaseProtocolStore

    /// The known devices of `accountId` with their registration ids.
    func devices(of accountId: String) throws -> [(deviceId: UInt32, registrationId: UInt32)] {
        try database.read { db in try RecipientDevicesTable.devices(of: accountId, db) }
    }

    /// Fetches bundles for `deviceIds` of `accountId` (all devices when `nil`) and builds sessions with them.
    func establish(
        _ accountId: String, deviceIds: [UInt32]?, except ownDevice: DeviceAddress? = nil,
        as credentials: DeviceCredentials
    ) async throws {
        var bundles: [PreKeyBundleResponse] = []
        // Each device asked for, or all of them at once.
        let wanted: [UInt32?] = deviceIds?.map { Optional($0) } ?? [nil]
        for deviceId in wanted {
            bundles.append(try await bundle(of: accountId, deviceId: deviceId, as: credentials))
        }
        try await database.awaitableWrite { [store, bundles] db in
            try RecipientsTable.ensure(accountId, db)
            for response in bundles {
                for device in response.devices where !(ownDevice?.accountId == accountId && ownDevice?.deviceId == device.deviceId) {
                    let bundle = try Self.bundle(response, device: device)
                    let address = try ProtocolAddress(name: accountId, deviceId: device.deviceId)
                    do {
                        try processPreKeyBundle(
                            bundle, for: address, sessionStore: store, identityStore: store, context: TransactionContext(db))
                    } catch SignalError.untrustedIdentity {
                        throw ParleyError.untrustedIdentity(address: accountId)
                    }
                    try Self.recordInstallation(
                        device.deviceId, of: accountId, registrationId: device.registrationId, addingUnknown: true, db)
                }
            }
        }
    }

    /// The bundles of `accountId`'s device `deviceId` (all when `nil`): fetched with the account's access key when a
    /// message to it may go sealed (a fetch with credentials right before a sealed send would tell the server who
    /// sends), else — or when the server refuses the key or turns the fetch away (429) — with this device's credentials.
    private func bundle(of accountId: String, deviceId: UInt32?, as credentials: DeviceCredentials) async throws -> PreKeyBundleResponse {
        if accountId != credentials.accountId,
            let key = try database.read({ db in try UnidentifiedDelivery.accessKeys(for: [accountId], db)[0] })
        {
            do {
                return try await api.bundle(accountId: accountId, deviceId: deviceId, accessKey: key)
            } catch ParleyError.server(let error) where error.status == 401 || error.status == 429 {
                // A stale key (the account rotated it; the send's own 401 records that), or this address's bucket for
                // the account emptied: this fetch goes identified.
            }
        }
        return try await api.bundle(accountId: accountId, deviceId: deviceId, as: credentials)
    }

    /// `devices` of `accountId`, after building a session from a fresh bundle for each that has no current one (its
    /// session was archived after a retry receipt, or lost); their registration ids as the bundles give them.
    func withCurrentSessions(
        _ accountId: String, devices: [(deviceId: UInt32, registrationId: UInt32)],
        as credentials: DeviceCredentials
    ) async throws -> [(deviceId: UInt32, registrationId: UInt32)] {
        let lacking = try database.read { [store] db in
            try devices.filter { device in
                try
                    !(store.loadSession(
                        for: try ProtocolAddress(name: accountId, deviceId: device.deviceId),
                        context: TransactionContext(db))?.hasCurrentState ?? false)
            }.map(\.deviceId)
        }
        guard !lacking.isEmpty else { return devices }
        try await establish(accountId, deviceIds: lacking, as: credentials)
        let known = try self.devices(of: accountId)
        return devices.map { device in known.first { $0.deviceId == device.deviceId } ?? device }
    }

    /// Forgets devices the server says are gone: their sessions, and the sender keys they held (the server gives a
    /// removed device's id to the next device linked, which holds none).
    func remove(_ accountId: String, deviceIds: [UInt32]) async throws {
        try await database.awaitableWrite { [store] db in
            try store.deleteSessions(for: accountId, deviceIds: deviceIds, in: db)
            for deviceId in deviceIds { try RecipientDevicesTable.remove(deviceId, of: accountId, db) }
            try SenderKeySharesTable.forgetEverywhere(member: accountId, deviceIds: deviceIds, db)
        }
    }

    /// Notes that device `deviceId` of `accountId` has `registrationId` — as its bundle gives it, or as its pre-key
    /// message carries it. A device not known before, or a known id with another registration id, is a new
    /// installation (the server gives a removed device's id to the next one linked): it holds none of this device's
    /// sender keys, whatever an earlier device with its id was recorded as holding — including what clients before
    /// `DeviceSessions.remove` forgot it left behind. A known device's new id is recorded, so that sends name it; an
    /// unknown device joins the devices sent to only with `addingUnknown` (the server listed it; a message alone
    /// does not make a device one this account sends to).
    static func recordInstallation(
        _ deviceId: UInt32, of accountId: String, registrationId: UInt32, addingUnknown: Bool,
        _ db: StorageTransaction
    ) throws {
        let known = try RecipientDevicesTable.registrationId(device: deviceId, of: accountId, db)
        guard known != registrationId else { return }
        if known != nil || addingUnknown { try RecipientDevicesTable.record(deviceId, of: accountId, registrationId: registrationId, db) }
        try SenderKeySharesTable.forgetEverywhere(member: accountId, deviceIds: [deviceId], db)
    }

    /// The protocol bundle for one device of a server answer.
    static func bundle(_ response: PreKeyBundleResponse, device: DeviceBundle) throws -> PreKeyBundle {
        func bytes(_ text: String) throws -> [UInt8] {
            guard let data = Data(base64Encoded: text) else { throw ParleyError.server(.malformedResponse("bundle field is not base64")) }
            return [UInt8](data)
        }
        return PreKeyBundle(
            registrationId: device.registrationId, deviceId: device.deviceId,
            oneTimePreKey: try device.preKey.map { ($0.keyId, try PublicKey(try bytes($0.publicKey))) },
            signedPreKeyId: device.signedPreKey.keyId, signedPreKey: try PublicKey(try bytes(device.signedPreKey.publicKey)),
            signedPreKeySignature: try bytes(device.signedPreKey.signature),
            identity: try IdentityKey(bytes: try bytes(response.identityKey)),
            kyberPreKey: try device.kemPreKey.map { ($0.keyId, try KEMPublicKey(try bytes($0.publicKey)), Data(try bytes($0.signature))) })
    }
}

/// One device of one account (client side).
struct DeviceAddress: Sendable, Equatable {
    let accountId: String
    let deviceId: UInt32
}
