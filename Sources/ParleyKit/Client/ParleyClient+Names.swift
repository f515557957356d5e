import Foundation
import ParleyAPI
import ParleyProtocol
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

    /// One pass of ``nameNewCorrespondents()``: each unnamed correspondent is asked for once per client. The username a
    /// correspondent's messages claim is believed when its hash leads to that account (the server stores no name for
    /// accounts that go by a username); an account with a plain name is asked for by id.
    private func namingPassBody() async {
        guard let credentials = try? credentials(),
            let unnamed = try? database.read({ db in try RecipientsTable.unnamed(limit: 50, db) })
        else { return }
        // Asked once per client for each claim (a new claim of the same correspondent is asked about again).
        for (accountId, claimed) in unnamed where askedForNames.withLock({ $0.insert(accountId + "\n" + (claimed ?? "")).inserted }) {
            if let claimed, let username = try? Username(claimed) {
                // A failure to reach the server (or its lookup budget) leaves the claim for the next pass.
                let found: String?
                do { found = try await api.account(usernameHash: username.hash) } catch { continue }
                try? database.write { db in try RecipientsTable.settleClaim(of: accountId, verified: found == accountId, db) }
                continue
            }
            guard let found = try? await api.account(accountId, as: credentials), found.accountId == accountId,
                let name = found.username
            else { continue }
            try? remember(username: name, for: accountId)
        }
    }
}
