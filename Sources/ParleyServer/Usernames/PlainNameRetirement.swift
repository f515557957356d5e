import Foundation
import ParleyAPI

/// When the server deletes an account's plain name: once the account goes by a confirmed username (of which the server
/// keeps only a hash) and its PIN backup, if it has one, no longer needs the name — a backup made under the name
/// (``BackupKDFParameters/PINInput/registeredName``) is restored by it, so the name stays until the primary device
/// replaces the backup with one keyed by the account id (`parley backup create`). Called after a username is confirmed
/// and after a backup is stored; each step is idempotent, so two racing callers end the same way.
struct PlainNameRetirement: Sendable {
    let store: any AccountStore & UsernameStore & BackupStore

    /// Deletes `accountId`'s plain name when nothing needs it any more; says whether the account is without one now.
    @discardableResult
    func retireIfUnneeded(accountId: String) async throws -> Bool {
        guard let account = try await store.account(id: accountId) else { return false }
        guard account.username != nil else { return true }
        guard try await store.usernameHash(accountId: accountId) != nil else { return false }
        if let backup = try await store.backup(accountId: accountId), Self.pinInput(of: backup) != .accountId { return false }
        try await store.forgetAccountName(accountId: accountId)
        return true
    }

    /// What the backup's PIN was hashed with (its stored parameters; unreadable ones count as made under the name, the
    /// cautious answer: the name stays).
    static func pinInput(of backup: StoredBackup) -> BackupKDFParameters.PINInput {
        let parameters = try? JSONDecoder().decode(BackupKDFParameters.self, from: Data(backup.kdfParameters.utf8))
        return parameters?.effectivePINInput ?? .registeredName
    }
}
