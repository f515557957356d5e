import ServiceLifecycle

/// Keeps this process true to the account changes other server processes on the same PostgreSQL make
/// (``PostgresStore/listenForAccountChanges(onChange:)``): its cached copy of the account is forgotten, and its sockets
/// of that account whose sign-in no longer stands — the account deleted or disabled, the device removed, its credential
/// replaced — are closed (``DeliveryHub/closeRevoked(accountId:current:)``), as the process that made the change closes
/// its own.
public struct AccountChangeListener: Service {
    let store: PostgresStore
    let hub: DeliveryHub

    /// A listener for `store`, closing revoked sockets in `hub`.
    public init(store: PostgresStore, hub: DeliveryHub) {
        self.store = store
        self.hub = hub
    }

    /// Listens until graceful shutdown.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [store, hub] in
            try await store.listenForAccountChanges { accountId in
                guard hub.isConnected(accountId: accountId) else { return }
                do {
                    hub.closeRevoked(accountId: accountId, current: try await store.accountWithDevices(id: accountId))
                } catch {
                    // A failed read decides nothing: the sockets stay until the account's next change.
                    store.logger.warning("Checking sockets after an account change failed",
                                         metadata: ["account": "\(accountId)", "error": "\(error)"])
                }
            }
        }
    }
}
