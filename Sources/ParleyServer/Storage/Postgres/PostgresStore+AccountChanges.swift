import PostgresNIO

extension PostgresStore {
    /// After a write to account `accountId` or its devices committed: forgets this process's copy at once and tells the
    /// other processes on the database (in the background: a lost notification is bounded by the cache's lifetime).
    func accountChanged(_ accountId: String) {
        accounts.invalidate(accountId)
        let payload = AccountNotification(instanceId: instanceId, accountId: accountId).payload
        Task { [self] in
            do {
                try await withConnection { connection in
                    try await perform("SELECT pg_notify(\(AccountNotification.channel), \(payload))", on: connection)
                }
            } catch {
                logger.warning("Announcing an account change failed", metadata: ["account": "\(accountId)", "error": "\(error)"])
            }
        }
    }

    /// Forgets cached accounts other processes sharing the database change, until the task is cancelled. On every
    /// (re)connection the whole cache is forgotten, since notifications sent while no one listened are lost. Holds one
    /// pooled connection while it runs.
    /// `onChange` hears each account another process changed, after this process's copy is forgotten, and
    /// `onListening` each time listening (re)starts, after every copy is forgotten (changes made while no one listened
    /// were missed). Both are called on the listening task: they must hand the work on, not do it.
    public func listenForAccountChanges(
        onListening: @escaping @Sendable () -> Void = {},
        onChange: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        while !Task.isCancelled {
            do {
                try await withConnection { connection in
                    try await connection.listen(on: AccountNotification.channel) { notifications in
                        accounts.invalidateAll()
                        onListening()
                        for try await notification in notifications {
                            guard let change = AccountNotification(payload: notification.payload) else {
                                logger.warning(
                                    "Ignoring a malformed account notification", metadata: ["payload": "\(notification.payload)"])
                                continue
                            }
                            guard change.instanceId != instanceId else { continue }
                            accounts.invalidate(change.accountId)
                            onChange(change.accountId)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning("Listening for account changes failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
