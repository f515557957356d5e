/// The one error ParleyKit throws, with messages meant for people (as ParleyProtocol throws `SignalError`). Cases are
/// grouped: this device's own state and the caller's values first, then one case per area with its own reasons —
/// the server (``Server``), PIN backups (``Backup``), linking devices (``Provisioning``), attachment files
/// (``Attachment``) and voice notes (``Audio``).
public enum ParleyError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: This device and the caller

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

    // MARK: Areas

    /// A call to the Parley server failed: refused, answered in a way that does not decode, or not reached.
    case server(Server)
    /// A PIN backup could not be made or restored.
    case backup(Backup)
    /// Linking a device failed.
    case provisioning(Provisioning)
    /// An attachment file could not be encrypted, checked or decrypted.
    case attachment(Attachment)
    /// A voice note's audio could not be read.
    case audio(Audio)

    /// The server's refusal, when this is one (its HTTP status and error code are in it).
    public var server: Server? { if case .server(let failure) = self { failure } else { nil } }

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
        case .server(let failure): return failure.description
        case .backup(let failure): return failure.description
        case .provisioning(let failure): return failure.description
        case .attachment(let failure): return failure.description
        case .audio(let failure): return failure.description
        }
    }
}
