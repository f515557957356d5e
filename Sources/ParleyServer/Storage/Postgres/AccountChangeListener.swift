import ServiceLifecycle

/// Keeps this process's cached accounts true to the changes other server processes on the same PostgreSQL make
/// (``PostgresStore/listenForAccountChanges()``).
public struct AccountChangeListener: Service {
    let store: PostgresStore

    /// A listener for `store`.
    public init(store: PostgresStore) {
        self.store = store
    }

    /// Listens until graceful shutdown.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [store] in
            try await store.listenForAccountChanges()
        }
    }
}
