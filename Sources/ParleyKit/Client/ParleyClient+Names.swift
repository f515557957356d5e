import Foundation
import ParleyAPI
import Synchronization

/// Names for account ids: the usernames this device knows, those it asks the server for, and this account's own.
extension ParleyClient {
    /// The usernames of `accountIds` a person should see: this account's own, those this device knows, and those of
    /// correspondents it did not know yet, asked of the server first (``nameNewCorrespondents()``).
    public func names(of accountIds: [String]) async throws -> [String: String] {
        await nameNewCorrespondents()
        var names = try usernames(of: accountIds)
        if let me = try account(), let id = me.credentials?.accountId { names[id] = me.username }
        return names
    }

    /// Remembers that `username` is `accountId` (after a lookup by username), so conversations show the name.
    public func remember(username: String, for accountId: String) throws {
        try database.write { db in try RecipientsTable.setUsername(username, for: accountId, db) }
    }

    /// Asks the server for the usernames of correspondents known only by account id (conversations they started).
    /// Best effort: a failure leaves them unnamed until the next time. Returns once every lookup begun before the call,
    /// by any caller, has ended.
    public func nameNewCorrespondents() async {
        let pass = namingPass.withLock { last -> Task<Void, Never> in
            let previous = last
            let next = Task { [weak self] in
                await previous?.value
                await self?.namingPassBody()
            }
            last = next
            return next
        }
        await pass.value
    }

    /// One pass of ``nameNewCorrespondents()``: each unnamed correspondent is asked for once per client.
    private func namingPassBody() async {
        guard let credentials = try? credentials(),
            let unnamed = try? database.read({ db in try RecipientsTable.unnamed(limit: 50, db) })
        else { return }
        for accountId in unnamed where askedForNames.withLock({ $0.insert(accountId).inserted }) {
            guard let found = try? await api.account(accountId, as: credentials), found.accountId == accountId else { continue }
            try? remember(username: found.username, for: accountId)
        }
    }
}
