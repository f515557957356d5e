import ServiceLifecycle

/// Wakes this process's sockets when another server process on the same PostgreSQL stores envelopes for them.
public struct MailboxChangeListener: Service {
    let store: PostgresStore
    let hub: DeliveryHub

    /// A listener feeding `hub` from `store`'s notifications.
    public init(store: PostgresStore, hub: DeliveryHub) {
        self.store = store
        self.hub = hub
    }

    /// Listens until graceful shutdown.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [store, hub] in
            // On every (re)connection: what other processes stored while no one listened was not heard, so every
            // socket here reads its mailbox again.
            try await store.listenForMailboxChanges(onListening: { hub.everyMailboxMayHaveChanged() }) { accountId, deviceId in
                hub.mailboxChanged(DeviceAddress(accountId: accountId, deviceId: deviceId))
            }
        }
    }
}
