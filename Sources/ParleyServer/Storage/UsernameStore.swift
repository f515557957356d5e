/// Username hashes and username links: the only trace of a username the server keeps.
///
/// A hash is reserved by one account for a while, then confirmed as its username; an account has at most one
/// confirmed hash and one reservation. A link is an encrypted username under a random handle, one per account.
public protocol UsernameStore: Sendable {
    /// Reserves for `accountId` the first of `candidates` that no other account has confirmed or holds reserved past
    /// `now`, until `until`; the account's earlier reservation is dropped. The account's own confirmed hash counts as
    /// free (and stays confirmed). Returns the reserved hash, or `nil` when every candidate is taken.
    func reserveUsernameHash(accountId: String, candidates: [[UInt8]], until: UInt64, now: UInt64) async throws -> [UInt8]?
    /// Makes `hash` the username of `accountId` when the account holds it reserved past `now` (or has it already),
    /// dropping the account's other hashes; `false` when it does not hold it. In the same transaction the account's
    /// username link becomes `link` (an encrypted username under a handle) or, without one, is dropped when the hash
    /// was not already the account's (it held the old username, which anyone may take now).
    func confirmUsernameHash(
        accountId: String, hash: [UInt8], now: UInt64, link: (handle: String, encryptedValue: [UInt8])?
    ) async throws -> Bool
    /// Drops every hash of `accountId` (confirmed or reserved) and its username link.
    func deleteUsernameHash(accountId: String) async throws
    /// The account whose confirmed username has `hash`, if any.
    func account(usernameHash hash: [UInt8]) async throws -> String?
    /// The confirmed username hash of `accountId` and its link's handle, if it has a username.
    func usernameHash(accountId: String) async throws -> (hash: [UInt8], linkHandle: String?)?
    /// Stores `encryptedValue` as the username link of `accountId`: under its current handle when `keepHandle` and it
    /// has one, otherwise under `newHandle`. Returns the handle, or `nil` when the account has no confirmed username.
    func setUsernameLink(accountId: String, encryptedValue: [UInt8], keepHandle: Bool, newHandle: String) async throws -> String?
    /// The encrypted username stored under `handle`, if any.
    func usernameLink(handle: String) async throws -> [UInt8]?
    /// Drops the username link of `accountId`.
    func deleteUsernameLink(accountId: String) async throws
}
