/// Whether the server still takes plain account names (`parley-server --plain-account-names`).
///
/// Accounts registered before usernames went by a plain name the server stores and looks up as it is. Retiring them
/// is the migration to usernames the server never reads: new registrations must come without a name, and
/// `GET /v1/accounts/whoami` tells each named account's client to take a username on its next start, after which the
/// server deletes the name (``PlainNameRetirement``).
public enum PlainAccountNames: String, Sendable, CaseIterable {
    /// Registration with or without a plain name; named accounts keep their names until they take a username.
    case allowed
    /// Registration only without a plain name; clients of named accounts are asked to move to a username.
    case retired
}
