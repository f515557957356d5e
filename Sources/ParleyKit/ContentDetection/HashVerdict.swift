/// What the client concluded about one content hash.
public struct HashVerdict: Sendable, Equatable, Codable {
    /// Where the answer came from.
    public enum Source: String, Sendable, Equatable, Codable {
        /// The server answered.
        case server
        /// A cached server answer.
        case cache
        /// The check was off, failed or the breaker was open: treated as not found (fail open).
        case failOpen
    }

    /// Whether a bank holds the hash.
    public let found: Bool
    /// Whether a bank whose policy blocks holds it.
    public let blocked: Bool
    /// The banks that hold it, as far as the lookup can tell (prefix lookups see only blocking banks).
    public let banks: [String]
    /// Where the answer came from.
    public let source: Source

    /// A verdict.
    public init(found: Bool, blocked: Bool, banks: [String], source: Source) {
        self.found = found
        self.blocked = blocked
        self.banks = banks
        self.source = source
    }

    /// "Not found" because nothing could be learned.
    static let failOpen = HashVerdict(found: false, blocked: false, banks: [], source: .failOpen)

    /// The same verdict, marked as served from the cache.
    var cached: HashVerdict { HashVerdict(found: found, blocked: blocked, banks: banks, source: .cache) }
}
