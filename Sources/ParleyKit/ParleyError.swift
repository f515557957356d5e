/// Errors of ParleyKit, with messages meant for people.
public enum ParleyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A protocol store was used without a ``TransactionContext``.
    case storeOutsideTransaction
    /// The local database has no account yet.
    case notRegistered
    /// The database key is wrong (or the file is not a Parley database).
    case wrongDatabaseKey
    /// The database key file is missing, unreadable or malformed.
    case keyFile(String)
    /// A database page failed its integrity check: the file was modified outside Parley.
    case databaseCorrupted(String)
    /// The recipient's identity key changed; sending is blocked until the new safety number is accepted.
    case untrustedIdentity(address: String)
    /// A value the caller gave is unusable.
    case invalidArgument(String)
    /// A decrypted message's content is not a valid Parley `Content` (see docs/CONTENT.md).
    case malformedContent(String)
    /// An attachment's content hash is in a blocking hash bank: the send or download was stopped.
    case duplicateBlocked(fileName: String)

    public var description: String {
        switch self {
        case .storeOutsideTransaction: return "protocol stores need a TransactionContext (open a write transaction)"
        case .notRegistered: return "this database has no account yet: register first"
        case .wrongDatabaseKey: return "the database key is wrong, or the file is not a Parley database"
        case .keyFile(let detail): return "database key file: \(detail)"
        case .databaseCorrupted(let detail): return "the database failed an integrity check: \(detail)"
        case .untrustedIdentity(let address): return "the safety number with \(address) changed: accept it before sending"
        case .invalidArgument(let detail): return detail
        case .malformedContent(let detail): return "malformed message content: \(detail)"
        case .duplicateBlocked(let fileName): return "\(fileName) matches a blocked content hash: not sent or opened"
        }
    }
}
