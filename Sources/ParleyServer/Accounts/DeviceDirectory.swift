/// An account's devices as their owner sees and manages them, behind every front door (REST, gRPC).
struct DeviceDirectory: Sendable {
    let store: any AccountStore
    /// Connections to close when a device goes.
    let hub: DeliveryHub

    /// The caller's account's devices, by id.
    func devices(of caller: AuthenticatedDevice) async throws -> [StoredDevice] {
        try await store.devices(accountId: caller.account.id)
    }

    /// Removes device `deviceId` of the caller's account with its keys and mailbox, and closes its socket. The primary
    /// device (1) cannot be removed; a linked device may remove only itself.
    func remove(deviceId: UInt32, by caller: AuthenticatedDevice) async throws {
        guard deviceId != 1 else { throw ServerError.forbidden("the primary device cannot be removed") }
        guard caller.device.deviceId == 1 || caller.device.deviceId == deviceId else {
            throw ServerError.forbidden("a linked device can remove only itself")
        }
        guard try await store.removeDevice(accountId: caller.account.id, deviceId: deviceId) else {
            throw ServerError.notFound("no device \(deviceId)")
        }
        hub.disconnect(DeviceAddress(accountId: caller.account.id, deviceId: deviceId))
    }
}
