/// Duplicate content detection: SHA-256 hashes of attachment plaintexts, checked against the server's hash banks.
///
/// A hash is always 64 lowercase hex characters. Banks: `blocked` (known-bad content, managed by operators) and
/// `seen` (hashes clients stored after successful sends, kept for a limited time).
public enum ContentDetectionRoutes {
    /// `POST` ``HashCheckRequest`` → ``HashCheckResult`` (authenticated device).
    public static let contains = "/v1/dcd/contains"
    /// `POST` ``BatchHashCheckRequest`` → ``BatchHashCheckResponse`` (authenticated device, up to 1,000 hashes).
    public static let batchContains = "/v1/dcd/batch-contains"
    /// `POST` ``HashCheckRequest``: record a hash in the `seen` bank after a successful send (authenticated device).
    public static let store = "/v1/dcd/store"
    /// `GET` ``HashPrefixResponse``: the blocking banks' hashes that start with five hex digits (authenticated device).
    public static func prefix(_ prefix: String) -> String { "/v1/dcd/prefix/\(prefix)" }
    /// `PUT` adds, `DELETE` removes one hash of a bank (operator).
    public static func hash(_ hash: String, bank: String) -> String { "/v1/dcd/banks/\(bank)/hashes/\(hash)" }
    /// `POST` a file of hashes to import into `bank` (operator) → ``HashImportJob``.
    public static func imports(bank: String) -> String { "/v1/dcd/imports?bank=\(bank)" }
    /// `GET` an import job's progress (operator).
    public static func importJob(_ id: String) -> String { "\(importJobs)/\(id)" }
    /// `POST` (operator, with `?bank=`): start an import job.
    public static let importJobs = "/v1/dcd/imports"
}

/// One hash to check or store.
public struct HashCheckRequest: Codable, Sendable, Equatable {
    /// SHA-256, 64 lowercase hex characters.
    public let hash: String

    /// A request for `hash`.
    public init(hash: String) { self.hash = hash }
}

/// What the server knows of one hash.
public struct HashCheckResult: Codable, Sendable, Equatable {
    /// The hash asked about.
    public let hash: String
    /// Whether any bank holds it.
    public let found: Bool
    /// The banks that hold it (`blocked`, `seen`).
    public let banks: [String]
    /// `block` when a bank whose policy blocks holds it, else `allow` (a `seen` hit counts as a duplicate).
    public let action: String

    /// A result.
    public init(hash: String, found: Bool, banks: [String], action: String) {
        self.hash = hash
        self.found = found
        self.banks = banks
        self.action = action
    }
}

/// Up to 1,000 hashes checked at once.
public struct BatchHashCheckRequest: Codable, Sendable, Equatable {
    /// The hashes.
    public let hashes: [String]

    /// A request for `hashes`.
    public init(hashes: [String]) { self.hashes = hashes }
}

/// One result per requested hash, in request order.
public struct BatchHashCheckResponse: Codable, Sendable, Equatable {
    /// The results.
    public let results: [HashCheckResult]

    /// A response.
    public init(results: [HashCheckResult]) { self.results = results }
}

/// The answer to a prefix lookup: the 59-hex-digit suffixes of every blocking-bank hash with the prefix, mixed
/// with decoys and sorted, always a multiple of a fixed size, so that neither the answer's size nor its order says
/// how many real hashes share the prefix — and the server never learns which full hash the client holds.
public struct HashPrefixResponse: Codable, Sendable, Equatable {
    /// The five hex digits asked about.
    public let prefix: String
    /// Suffixes (59 lowercase hex characters each), sorted.
    public let suffixes: [String]

    /// A response.
    public init(prefix: String, suffixes: [String]) {
        self.prefix = prefix
        self.suffixes = suffixes
    }
}

/// A background import of hashes into a bank, and how far it got.
public struct HashImportJob: Codable, Sendable, Equatable {
    /// The job id.
    public let id: String
    /// The bank it fills.
    public let bank: String
    /// `queued`, `running`, `completed` or `failed`.
    public let state: String
    /// Bytes of the uploaded file.
    public let fileBytes: Int64
    /// Lines read so far.
    public let lines: Int64
    /// Hashes newly added.
    public let imported: Int64
    /// Valid hashes the bank already held (also repeats within the file).
    public let duplicates: Int64
    /// Lines that were not a hash (blank lines are skipped, not counted).
    public let invalid: Int64
    /// The first invalid lines, as `line N: reason` (at most 20).
    public let errors: [String]
    /// Milliseconds since 1970.
    public let created: UInt64
    /// Milliseconds since 1970 of the last progress.
    public let updated: UInt64

    /// A job record.
    public init(
        id: String, bank: String, state: String, fileBytes: Int64, lines: Int64, imported: Int64, duplicates: Int64,
        invalid: Int64, errors: [String], created: UInt64, updated: UInt64
    ) {
        self.id = id
        self.bank = bank
        self.state = state
        self.fileBytes = fileBytes
        self.lines = lines
        self.imported = imported
        self.duplicates = duplicates
        self.invalid = invalid
        self.errors = errors
        self.created = created
        self.updated = updated
    }
}
