/// Usernames the server never reads (Signal's username API): an account reserves one of a few candidate hashes,
/// confirms it with a zero-knowledge proof of knowing what the hash opens to, and is found by that hash; a username
/// link keeps the username encrypted under a random handle. Hashes, proofs and encrypted values travel as unpadded
/// base64url (``Base64URL``).
public enum UsernameRoutes {
    /// `PUT` ``ReserveUsernameHashRequest`` → ``ReserveUsernameHashResponse`` (any device): the first free hash of up
    /// to ``ReserveUsernameHashRequest/maximumCandidates``, held for this account for five minutes (409 when all are
    /// taken).
    public static let reserve = "/v1/accounts/username_hash/reserve"
    /// `PUT` ``ConfirmUsernameHashRequest`` → ``UsernameHashResponse`` (any device): the reserved hash becomes the
    /// account's username, replacing any other, and the link becomes the one sent (without one, a link to an earlier
    /// username is dropped) (409 when the reservation lapsed or was never made, 422 when the proof does not prove the
    /// hash).
    public static let confirm = "/v1/accounts/username_hash/confirm"
    /// `DELETE` (any device): the account has no username and no username link any more; `GET` →
    /// ``UsernameHashResponse`` the account's own hash (404 without one).
    public static let hash = "/v1/accounts/username_hash"
    /// `GET` → ``AccountIdentifierResponse`` (no authentication, limited per client address): the account whose
    /// username has `usernameHash` (base64url), or 404.
    public static func lookup(usernameHash: String) -> String { "/v1/accounts/username_hash/\(usernameHash)" }
    /// `PUT` ``EncryptedUsername`` → ``UsernameLinkHandle`` (any device of an account with a username): stores the
    /// encrypted username under a new handle (or the current one with `keepLinkHandle`); `DELETE` removes it.
    public static let link = "/v1/accounts/username_link"
    /// `GET` → ``EncryptedUsername`` (no authentication, limited per client address): the encrypted username under the
    /// link `handle` (a UUID), or 404.
    public static func link(handle: String) -> String { "/v1/accounts/username_link/\(handle)" }
}
