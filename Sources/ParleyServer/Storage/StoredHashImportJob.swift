import ParleyAPI

/// An import job as stored: the public record and the file offset to resume from.
public struct StoredHashImportJob: Sendable, Equatable {
    /// The record clients see.
    public var job: HashImportJob
    /// Bytes of the file already imported.
    public var offset: Int64

    /// A stored job.
    public init(job: HashImportJob, offset: Int64) {
        self.job = job
        self.offset = offset
    }
}
