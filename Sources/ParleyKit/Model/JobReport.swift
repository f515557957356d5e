/// What one pass over the job queue did.
public struct JobReport: Sendable, Equatable {
    /// Jobs finished.
    public var completed = 0
    /// Jobs that failed for good (their messages are marked failed).
    public var failed = 0
    /// Jobs that will be retried later.
    public var deferred = 0

    /// A report.
    public init(completed: Int = 0, failed: Int = 0, deferred: Int = 0) {
        self.completed = completed
        self.failed = failed
        self.deferred = deferred
    }

    /// Adds what another pass did.
    public mutating func add(_ other: JobReport) {
        completed += other.completed
        failed += other.failed
        deferred += other.deferred
    }
}
