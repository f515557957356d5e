import ParleyAPI

/// Push targets per device, and which devices have a socket open on some server process (so a process that stores a
/// message can tell whether any process will deliver it live).
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol PushStore: Sendable {
    /// Registers `target` for the device, replacing its previous one and forgetting when it was last pushed.
    func setPushTarget(_ target: PushTarget, accountId: String, deviceId: UInt32, now: UInt64) async throws
    /// The device's target, or `nil`.
    func pushTarget(accountId: String, deviceId: UInt32) async throws -> PushTarget?
    /// Whether the device has a signed prekey, that is, can decrypt messages sent to it now.
    func hasSignedPreKey(accountId: String, deviceId: UInt32) async throws -> Bool
    /// Removes the device's target (only when it is still `matching`, if given: a provider's "unregistered" must not
    /// remove a target registered since); `false` when there was none to remove.
    func removePushTarget(accountId: String, deviceId: UInt32, matching: PushTarget?) async throws -> Bool
    /// Claims the right to push the device now, in one transaction (the row locked, so two processes never both
    /// claim it): it has a target and a signed prekey (only devices that can decrypt are woken), no socket seen after
    /// `liveAfter` on a process other than `instanceId` (this process's own sockets are its hub's business), and was
    /// not pushed after `pushedBefore` (coalescing across processes). When claimed, its push time becomes `now`.
    func claimPush(
        accountId: String, deviceId: UInt32, instanceId: String, now: UInt64, pushedBefore: UInt64,
        liveAfter: UInt64
    ) async throws -> PushClaim
    /// Records that the device has a socket on process `instanceId`, and clears its last push time (the next message
    /// after it goes offline again wakes it).
    func recordSocketOpened(accountId: String, deviceId: UInt32, instanceId: String, now: UInt64) async throws
    /// Records that the device's socket on process `instanceId` closed.
    func recordSocketClosed(accountId: String, deviceId: UInt32, instanceId: String) async throws
    /// Marks every socket of `instanceId` as seen at `now` and forgets every socket not seen since `staleBefore` (of
    /// processes that died without saying so).
    func refreshSockets(instanceId: String, now: UInt64, staleBefore: UInt64) async throws
    /// Forgets every socket of `instanceId` (its graceful shutdown).
    func forgetSockets(instanceId: String) async throws
}
