import ParleyAPI

/// What the operator does: invites, the account list, disabling and deleting accounts.
///
/// Implementations are safe to call concurrently; each method is one transaction.
public protocol AdministrationStore: Sendable {
    /// Stores a new registration invite.
    func createInvite(_ invite: StoredInvite) async throws
    /// Accounts for the operator, by id, after `after` (exclusive), at most `limit`.
    func accountSummaries(after: String?, limit: Int) async throws -> [AccountSummary]
    /// Disables or enables an account; `false` when there is none.
    func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool
    /// Deletes an account with its devices, keys, mailboxes and backup (its username becomes free); `false` when there
    /// is none.
    func deleteAccount(id: String) async throws -> Bool
}
