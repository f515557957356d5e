import Foundation

/// The verbs of duplicate content detection: files checked against the server's hash banks, and the setup checked.
extension ParleyClient {
    /// Hashes the files at `urls` and looks the hashes up in the server's hash banks, as configured (prefix lookups by
    /// default: the server never sees a whole hash). Fails open: a lookup that cannot be made is "not found".
    /// - Throws: the file system's error when a file cannot be read.
    public func checkContent(ofFiles urls: [URL]) async throws -> [ContentCheck] {
        let hashes = try urls.map { try ContentDetectionService.hash(ofFileAt: $0) }
        let verdicts = await contentDetection.batchContains(hashes)
        return zip(urls, zip(hashes, verdicts)).map { ContentCheck(file: $0, sha256: $1.0, verdict: $1.1) }
    }

    /// Checks the configuration and that the server answers hash lookups, step by step.
    public func verifyContentDetection() async -> [ContentDetectionCheck] {
        await contentDetection.verify()
    }
}
