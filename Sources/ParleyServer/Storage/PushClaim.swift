import ParleyAPI

/// What claiming a device for a push came to (``PushStore/claimPush(accountId:deviceId:instanceId:now:pushedBefore:liveAfter:)``).
public enum PushClaim: Sendable, Equatable {
    /// Push `target` now.
    case claimed(PushTarget)
    /// Nothing to push: no target, or no signed prekey (the device could not decrypt what waits).
    case notPushable
    /// Another process has the device's socket: it delivers, and pushes when that socket closes with envelopes left.
    case online
    /// Another process pushed it at `pushedAt` (milliseconds), within the window.
    case recentlyPushed(pushedAt: UInt64)
}
