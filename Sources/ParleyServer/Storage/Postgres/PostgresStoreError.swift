/// Failures of ``PostgresStore`` itself: its configuration or an answer from the database it cannot use.
/// Errors from PostgreSQL and the connection come through as PostgresNIO's `PSQLError`.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection URL is not `postgres://user[:password]@host[:port][/database]`; the reason, never the URL
    /// (it may hold a password).
    case invalidURL(String)
    /// The instance id is empty or holds whitespace, so it cannot head a mailbox notification.
    case invalidInstanceId(String)
    /// A query that always returns a row returned none; names the query's purpose.
    case missingRow(String)

    /// A message for logs and the command line.
    public var description: String {
        switch self {
        case .invalidURL(let reason):
            "Invalid PostgreSQL URL: \(reason) (expected postgres://user[:password]@host[:port][/database])"
        case .invalidInstanceId(let instanceId):
            "Invalid instance id \"\(instanceId)\": it must be non-empty and hold no whitespace"
        case .missingRow(let purpose):
            "PostgreSQL returned no row for \(purpose)"
        }
    }
}
