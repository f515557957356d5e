import Foundation
import ParleyAPI

/// Whether this account has other devices, when this one knows of none.
///
/// A sent message's transcript goes to the account's other devices. With none known, the copy used to go anyway as an
/// empty send (the server's 409 naming the devices that exist): a request with this device's credentials and the
/// message's timestamp, beside the sealed message it followed — telling the server who sent that one. Instead the
/// device list (a request that names no message) is asked for at most once per ``ownDevicesCheckInterval``, and at
/// every send while a link this device approved may still be completing (``ownDevicesLinkWindow``). Receiving asks
/// first (``ParleyClient/receiveOnce()`` after draining, ``ParleyClient/listen(onOutcome:)`` before its jobs run and hourly),
/// so a client that receives finds the answer fresh when it sends, and its sends ask nothing beside their messages.
extension MessageDelivery {
    /// How long an answer "no other device" is believed.
    static let ownDevicesCheckInterval: UInt64 = 24 * 60 * 60 * 1000
    /// How long after approving a link every send asks again (the new device joins when its user finishes linking).
    static let ownDevicesLinkWindow: UInt64 = 60 * 60 * 1000
    /// The `settings` key of the last time the server said there was no other device (milliseconds).
    static let ownDevicesCheckedSetting = "own_devices_checked_at"
    /// The `settings` key of the time a link was approved on this device (milliseconds).
    static let linkApprovedSetting = SettingsTable.linkApprovedAt

    /// Whether a transcript has anywhere to go: `true` when this account has another device (sessions with it are set up
    /// here when the server names new ones), `false` when it has none — asked of the server only when no other device
    /// is known and the last answer is stale, or would be within `ahead` milliseconds (receiving asks an hour early, so a
    /// send does not find it stale first).
    func ownDevicesExist(as credentials: DeviceCredentials, ahead: UInt64 = 0) async throws -> Bool {
        if try sessions.devices(of: credentials.accountId).contains(where: { $0.deviceId != credentials.deviceId }) { return true }
        let now = now()
        let (checked, approved) = try database.read { db in
            (
                try SettingsTable.value(Self.ownDevicesCheckedSetting, db).flatMap { UInt64($0) },
                try SettingsTable.value(Self.linkApprovedSetting, db).flatMap { UInt64($0) }
            )
        }
        // An answer counts only when given after a link's window closed (the device may have joined since).
        let linking = approved.map { now >= $0 && now - $0 < Self.ownDevicesLinkWindow } ?? false
        let stillTrue =
            checked.map { checked in
                now >= checked && now - checked + ahead < Self.ownDevicesCheckInterval
                    && approved.map { checked >= $0 && checked - $0 >= Self.ownDevicesLinkWindow } ?? true
            } ?? false
        if !linking, stillTrue { return false }
        let others = try await api.devices(as: credentials).devices.map(\.deviceId).filter { $0 != credentials.deviceId }
        guard !others.isEmpty else {
            // Only "none" is remembered: devices found are known from their sessions once these are set up.
            try await database.awaitableWrite { db in try SettingsTable.set(Self.ownDevicesCheckedSetting, to: String(now), db) }
            return false
        }
        try await sessions.establish(
            credentials.accountId, deviceIds: others,
            except: DeviceAddress(accountId: credentials.accountId, deviceId: credentials.deviceId), as: credentials)
        return true
    }
}
