import ParleyProtocol

/// What ``ParleyClient/movePlainNameToUsernameIfAsked()`` did.
public enum PlainNameMove: Sendable, Equatable {
    /// Nothing: the server still takes plain names, or this account goes by a username already.
    case notAsked
    /// The account took `username` (its plain name made into a nickname). `nameKeptForBackup`: the server keeps the
    /// plain name until the PIN backup, made under it, is made again (`parley backup create`).
    case moved(username: String, nameKeptForBackup: Bool)
}
