import ServiceLifecycle

/// Keeps this process true to the account changes other server processes on the same PostgreSQL make
/// (``PostgresStore/listenForAccountChanges(onListening:onChange:)``): its cached copy of the account is forgotten, and
/// its sockets of that account whose sign-in no longer stands — the account deleted or disabled, the device removed,
/// its credential replaced — are closed (``DeliveryHub/closeRevoked(accountId:current:)``), as the process that made
/// the change closes its own. Each time listening (re)starts, every connected account is checked (changes made while
/// no one listened were missed).
///
/// The checks run on a task of their own, one account at a time, so the listening connection never waits for them;
/// accounts waiting for a check are bounded.
public struct AccountChangeListener: Service {
    let store: PostgresStore
    let hub: DeliveryHub

    /// The most accounts waiting for a check; beyond it the oldest waiting are dropped (their sockets stay until the
    /// account's next change).
    static let maximumPending = 100_000

    /// A listener for `store`, closing revoked sockets in `hub`.
    public init(store: PostgresStore, hub: DeliveryHub) {
        self.store = store
        self.hub = hub
    }

    /// Listens until graceful shutdown.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [store, hub] in
            let (changed, pending) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.maximumPending))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await accountId in changed where hub.isConnected(accountId: accountId) {
                        do {
                            hub.closeRevoked(accountId: accountId, current: try await store.accountWithDevices(id: accountId))
                        } catch {
                            // A failed read decides nothing: the sockets stay until the account's next change.
                            store.logger.warning(
                                "Checking sockets after an account change failed",
                                metadata: ["account": "\(accountId)", "error": "\(error)"])
                        }
                    }
                }
                group.addTask {
                    defer { pending.finish() }
                    try await store.listenForAccountChanges(
                        onListening: { for accountId in hub.connectedAccountIds() { pending.yield(accountId) } },
                        onChange: { accountId in pending.yield(accountId) })
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
