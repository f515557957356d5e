import Foundation
import ParleyAPI

/// Relays ephemeral events (typing indicators: never stored, never retried) to an account's connected devices — the one
/// implementation behind a socket's `ephemeral` frames and `PUT /v1/ephemeral/{account}`.
///
/// A device's event is relayed with it named (`sourceAccountId`, `sourceDeviceId`), limited per account. A caller
/// showing the recipient's unidentified access key instead of credentials — a typing indicator whose copies are sealed
/// sender — is relayed with no source, limited per client address, per recipient and address, and per recipient: the
/// server learns who is told, never who tells.
struct EphemeralRelay: Sendable {
    let store: any AccountStore
    let hub: DeliveryHub
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    /// Relays `event` to `accountId`'s connected devices (none connected: dropped, as every ephemeral event).
    /// - Throws: ``ServerError/badRequest(_:)`` for a malformed event; without credentials ``ServerError/unauthorized``
    ///   for a wrong key or an unknown account (the route says nothing about who exists); 429 past a bucket.
    func relay(_ event: EphemeralEvent, to accountId: String, from authorization: SendAuthorization) async throws {
        // The body as a client sent it, then the path's account in its place.
        try event.check(limits: limits)
        switch authorization {
        case .device(let device):
            try Self.relay(
                EphemeralEvent(destinationAccountId: accountId, kind: event.kind, content: event.content, timestamp: event.timestamp),
                from: device, hub: hub, limits: limits, rateLimiter: rateLimiter)
        case .unidentifiedAccess(let accessKey, let clientAddress):
            try rateLimiter.take(
                "unidentified-ephemeral", address: clientAddress, policy: limits.rateLimits.unidentifiedEphemeralPerAddress)
            let found = accountId.utf8.count <= 64 ? try await store.account(id: accountId.lowercased()) : nil
            guard let account = found, SendService.allowsUnidentifiedAccess(account, key: accessKey) else { throw ServerError.unauthorized }
            try rateLimiter.take(
                "unidentified-ephemeral", recipient: account.id, from: clientAddress,
                perAddress: limits.rateLimits.unidentifiedEphemeralPerRecipientPerAddress,
                overall: limits.rateLimits.unidentifiedEphemeralPerRecipient)
            let unnamed = EphemeralEvent(
                destinationAccountId: account.id, kind: event.kind, content: event.content, timestamp: event.timestamp)
            hub.relay(unnamed, toAccount: account.id, excluding: nil)
        }
    }

    /// Relays `event` from `device`, named, to its destination's connected devices other than `device` (a socket's
    /// frame needs no store: the destination is whatever it names, an unknown one reaching no one).
    static func relay(
        _ event: EphemeralEvent, from device: AuthenticatedDevice, hub: DeliveryHub, limits: ServerLimits,
        rateLimiter: RateLimiter
    ) throws {
        try event.check(limits: limits)
        try rateLimiter.take("ephemeral", accountId: device.account.id, policy: limits.rateLimits.ephemeral)
        let stamped = EphemeralEvent(
            destinationAccountId: event.destinationAccountId.lowercased(), sourceAccountId: device.account.id,
            sourceDeviceId: device.device.deviceId, kind: event.kind, content: event.content, timestamp: event.timestamp)
        hub.relay(
            stamped, toAccount: stamped.destinationAccountId,
            excluding: DeviceAddress(accountId: device.account.id, deviceId: device.device.deviceId))
    }
}
