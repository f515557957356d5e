/// Hears how far an attachment transfer is: the file's name, bytes done, bytes in all (for a progress bar).
public typealias TransferProgress = @Sendable (_ fileName: String, _ done: Int64, _ total: Int64) -> Void
