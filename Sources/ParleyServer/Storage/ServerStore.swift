/// Everything the server persists, one protocol per area, so that each controller and service takes only the areas it
/// uses. Implementations (``SQLiteStore``, ``PostgresStore``) are safe to call concurrently; each method is one transaction.
public protocol ServerStore: AccountStore, KeyStore, LinkingStore, MailboxStore, HashBankStore, BackupStore, AdministrationStore, PushStore,
    GroupStore, ProfileStore, UsernameStore
{
    /// Answers when the database does (`/health`): a trivial query that reads no table.
    func ping() async throws
}
