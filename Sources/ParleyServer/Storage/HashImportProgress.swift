/// How far an import got after one chunk: recorded in the same transaction as the chunk's hashes, so a restarted
/// server resumes exactly where the last committed chunk ended.
public struct HashImportProgress: Sendable, Equatable {
    /// Bytes of the file consumed (whole lines only).
    public var offset: Int64 = 0
    /// Lines read.
    public var lines: Int64 = 0
    /// Lines that were not a hash.
    public var invalid: Int64 = 0
    /// Invalid lines of this chunk, as `line N: reason` (the store keeps the first 20 of the job).
    public var newErrors: [String] = []

    /// No progress yet.
    public init() {}
}
