import Synchronization
import Testing

@testable import ParleyServer

/// `DeliveryHub.disconnect(accountId:)`, which the operator's disable and delete call after storing the change: every
/// connection of the account here is told it is revoked, whatever devices it has, and no other account's is.
@Suite struct DeliveryHubAccountDisconnectTests {
    @Test func disconnectingAnAccountRevokesEveryOneOfItsConnectionsAndNoOther() {
        let revoked = Mutex<[DeviceAddress]>([])
        let counts = Mutex<[Int]>([])
        let hub = DeliveryHub(onCountChange: { count in counts.withLock { $0.append(count) } })
        let subscribe = { (address: DeviceAddress) in
            _ = hub.subscribe(address, credential: "hash") { event in
                if case .revoked = event { revoked.withLock { $0.append(address) } }
            }
        }
        let alice = (1...3).map { DeviceAddress(accountId: "alice", deviceId: UInt32($0)) }
        let bob = DeviceAddress(accountId: "bob", deviceId: 1)
        alice.forEach(subscribe)
        subscribe(bob)
        #expect(hub.connectedCount == 4)

        hub.disconnect(accountId: "alice")
        #expect(Set(revoked.withLock { $0 }) == Set(alice))
        #expect(hub.isConnected(accountId: "alice") == false)
        #expect(hub.isConnected(accountId: "bob"))
        #expect(hub.connectedCount == 1)
        #expect(counts.withLock { $0.last } == 1)

        // An account with nothing connected here: nothing happens.
        hub.disconnect(accountId: "carol")
        #expect(revoked.withLock { $0.count } == 3)
        #expect(hub.connectedCount == 1)
    }

    /// After this process's listening connection to PostgreSQL comes back, every connected device is told to read its
    /// mailbox again: what other processes stored meanwhile went unheard.
    @Test func everyConnectedDeviceIsToldItsMailboxMayHaveChanged() {
        let woken = Mutex<[DeviceAddress]>([])
        let hub = DeliveryHub()
        let devices = [
            DeviceAddress(accountId: "alice", deviceId: 1), DeviceAddress(accountId: "alice", deviceId: 2),
            DeviceAddress(accountId: "bob", deviceId: 1),
        ]
        for address in devices {
            _ = hub.subscribe(address, credential: "hash") { event in
                if case .mailboxChanged = event { woken.withLock { $0.append(address) } }
            }
        }
        hub.everyMailboxMayHaveChanged()
        #expect(Set(woken.withLock { $0 }) == Set(devices) && woken.withLock { $0.count } == 3)
    }
}
