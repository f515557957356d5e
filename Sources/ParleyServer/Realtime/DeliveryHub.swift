import Foundation
import ParleyAPI
import Synchronization

/// The connected devices of this server process and a way to reach each of them.
///
/// Each connection ``subscribe(_:deliver:)``s with its device address and a function that takes its ``HubEvent``s;
/// senders ``publish(_:)`` stored envelopes and relay ephemeral events. A device has at most one live connection:
/// a new one displaces the old. Safe to use from any task.
public final class DeliveryHub: Sendable {
    private struct Subscriber {
        let id: UInt64
        /// The stored credential hash the connection authenticated against (``closeRevoked(accountId:current:)``).
        let credential: String
        /// Hands an event to the connection (it must not block: the connection queues it).
        let deliver: @Sendable (HubEvent) -> Void
    }

    private struct State {
        var nextId: UInt64 = 0
        /// Account → device → its connection.
        var accounts: [String: [UInt32: Subscriber]] = [:]
        var count = 0

        subscript(address: DeviceAddress) -> Subscriber? {
            accounts[address.accountId]?[address.deviceId]
        }

        mutating func replace(_ address: DeviceAddress, with subscriber: Subscriber?) -> Subscriber? {
            var devices = accounts[address.accountId] ?? [:]
            let previous = devices[address.deviceId]
            devices[address.deviceId] = subscriber
            accounts[address.accountId] = devices.isEmpty ? nil : devices
            count += (subscriber == nil ? 0 : 1) - (previous == nil ? 0 : 1)
            return previous
        }
    }

    private let state = Mutex(State())
    /// Called with the number of open sockets whenever it changes (the metrics gauge).
    private let onCountChange: @Sendable (Int) -> Void
    /// Called when a device's socket opens (`true`) or closes here, in order (the push notifier's presence records).
    private let onPresenceChange: @Sendable (DeviceAddress, Bool) -> Void

    /// A hub; `onCountChange` receives the number of connected devices after every change, `onPresenceChange` each
    /// device whose socket opened or closed.
    public init(
        onCountChange: @escaping @Sendable (Int) -> Void = { _ in },
        onPresenceChange: @escaping @Sendable (DeviceAddress, Bool) -> Void = { _, _ in }
    ) {
        self.onCountChange = onCountChange
        self.onPresenceChange = onPresenceChange
    }

    /// Devices connected right now.
    public var connectedCount: Int { state.withLock { $0.count } }

    /// Registers a connection for `address`, whose events go to `deliver` (called from the publishing task: it must
    /// only queue them); a previous connection of the same device gets ``HubEvent/displaced``. Returns the
    /// subscription id, for ``unsubscribe(_:id:)``. The connection takes events into its own queue rather than through
    /// a stream and a task of the hub's: an idle socket costs no task here.
    /// `credential` is the stored hash the connection authenticated against.
    func subscribe(_ address: DeviceAddress, credential: String, deliver: @escaping @Sendable (HubEvent) -> Void) -> UInt64 {
        // Presence is reported under the lock, so opens and closes of one device reach the notifier in order.
        let (id, previous, count) = state.withLock { state -> (UInt64, Subscriber?, Int) in
            state.nextId += 1
            let previous = state.replace(address, with: Subscriber(id: state.nextId, credential: credential, deliver: deliver))
            onPresenceChange(address, true)
            return (state.nextId, previous, state.count)
        }
        previous?.deliver(.displaced)
        onCountChange(count)
        return id
    }

    /// Closes `address`'s connection here, if any (its credential was replaced or the device removed): it gets
    /// ``HubEvent/revoked`` and must sign in again.
    func disconnect(_ address: DeviceAddress) {
        close(address, onlyId: nil)
    }

    /// Closes every connection of `accountId` here (each gets ``HubEvent/revoked``): the operator disabled or deleted
    /// the account. Called after the change is stored, so it also closes a device linked while the change was being
    /// made; a connection subscribing after this call finds the change in its own sign-in check.
    func disconnect(accountId: String) {
        let connected = state.withLock { state in
            (state.accounts[accountId] ?? [:]).map { (DeviceAddress(accountId: accountId, deviceId: $0.key), $0.value.id) }
        }
        for (address, id) in connected { close(address, onlyId: id) }
    }

    /// The accounts with a device connected here.
    public func connectedAccountIds() -> [String] {
        state.withLock { Array($0.accounts.keys) }
    }

    /// Whether any device of `accountId` is connected here.
    public func isConnected(accountId: String) -> Bool {
        state.withLock { $0.accounts[accountId] != nil }
    }

    /// Closes this process's connections of `accountId` whose sign-in no longer stands, after another server process
    /// changed the account: all of them when `current` is `nil` (the account is gone) or the account is disabled, else
    /// those whose device was removed or whose credential was replaced (``StoredDevice/passwordHash`` differs).
    public func closeRevoked(accountId: String, current: (account: StoredAccount, devices: [StoredDevice])?) {
        let revoked = state.withLock { state -> [(DeviceAddress, UInt64)] in
            (state.accounts[accountId] ?? [:]).compactMap { deviceId, subscriber in
                Self.signInStands(deviceId: deviceId, credential: subscriber.credential, in: current)
                    ? nil : (DeviceAddress(accountId: accountId, deviceId: deviceId), subscriber.id)
            }
        }
        for (address, id) in revoked { close(address, onlyId: id) }
    }

    /// Whether a sign-in as device `deviceId` with the stored credential hash `credential` still stands in `current`,
    /// the account as stored (`nil`: it is gone): the account is not disabled and the device is there with that hash.
    static func signInStands(
        deviceId: UInt32, credential: String,
        in current: (account: StoredAccount, devices: [StoredDevice])?
    ) -> Bool {
        guard let current, !current.account.disabled else { return false }
        return current.devices.contains { $0.deviceId == deviceId && $0.passwordHash == credential }
    }

    /// Removes `address`'s connection (only connection `onlyId`, when given: not a newer one that replaced it) and tells
    /// it ``HubEvent/revoked``.
    private func close(_ address: DeviceAddress, onlyId: UInt64?) {
        let (removed, count) = state.withLock { state -> (Subscriber?, Int) in
            if let onlyId, state[address]?.id != onlyId { return (nil, state.count) }
            let removed = state.replace(address, with: nil)
            if removed != nil { onPresenceChange(address, false) }
            return (removed, state.count)
        }
        guard let removed else { return }
        removed.deliver(.revoked)
        onCountChange(count)
    }

    /// Removes the connection `id` of `address` (a no-op when a newer one displaced it).
    func unsubscribe(_ address: DeviceAddress, id: UInt64) {
        let (removed, count) = state.withLock { state -> (Subscriber?, Int) in
            guard state[address]?.id == id else { return (nil, state.count) }
            onPresenceChange(address, false)
            return (state.replace(address, with: nil), state.count)
        }
        if removed != nil { onCountChange(count) }
    }

    /// Hands freshly stored envelopes to their devices' connections, if connected here; returns the devices that are
    /// not (for the push notifier).
    @discardableResult
    public func publish(_ envelopes: [StoredEnvelope]) -> [DeviceAddress] {
        var offline: [DeviceAddress] = []
        let targets = state.withLock { state in
            envelopes.compactMap { envelope -> (Subscriber, StoredEnvelope)? in
                let address = DeviceAddress(accountId: envelope.accountId, deviceId: envelope.deviceId)
                guard let subscriber = state[address] else {
                    offline.append(address)
                    return nil
                }
                return (subscriber, envelope)
            }
        }
        for (subscriber, envelope) in targets { subscriber.deliver(.envelope(envelope)) }
        return offline
    }

    /// Tells a connected device that its mailbox changed elsewhere (another server process).
    public func mailboxChanged(_ address: DeviceAddress) {
        state.withLock { $0[address] }?.deliver(.mailboxChanged)
    }

    /// Tells every connected device that its mailbox may have changed elsewhere: this process was not listening for a
    /// while (its listening connection to PostgreSQL was lost), so what other processes stored meanwhile went unheard.
    public func everyMailboxMayHaveChanged() {
        let subscribers = state.withLock { state in state.accounts.values.flatMap(\.values) }
        for subscriber in subscribers { subscriber.deliver(.mailboxChanged) }
    }

    /// Relays an ephemeral event to every connected device of `accountId` except `excluding`; returns how many got it.
    @discardableResult
    func relay(_ event: EphemeralEvent, toAccount accountId: String, excluding: DeviceAddress?) -> Int {
        let targets = state.withLock { state in
            (state.accounts[accountId] ?? [:]).filter { DeviceAddress(accountId: accountId, deviceId: $0.key) != excluding }.map(\.value)
        }
        for subscriber in targets { subscriber.deliver(.ephemeral(event)) }
        return targets.count
    }
}
