import Foundation

/// A 32-byte random secret kept in a file of its own (mode 0600) in the data directory, made on first start and
/// kept beside the database, never in it: the decoy key of the hash banks' prefix answers (`dcd-decoy.key`) and the
/// PIN backups' OPRF key (`backup-oprf.key`) and the seed of the zkgroup keys (`zkgroup.key`).
public enum SecretKeyFile {
    /// Length of every key.
    public static let length = 32

    /// The key in the file at `url`, made from fresh random bytes when there is no file yet.
    ///
    /// - Throws: ``SecretKeyFileError/malformed(path:bytes:)`` when the file exists but does not hold exactly 32 bytes
    ///   (it is never replaced: losing the backup key would make every PIN backup unrecoverable);
    ///   ``SecretKeyFileError/unwritable(path:)`` when a new file cannot be created; Foundation's error when an existing
    ///   file cannot be read.
    public static func load(at url: URL) throws -> [UInt8] {
        if let existing = try read(url) { return existing }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // O_EXCL: of two processes starting at once, one creates the file and the other reads it; the key is on disk
        // (fsync) before anything is made with it.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST, let raced = try read(url) { return raced }
            throw SecretKeyFileError.unwritable(path: url.path)
        }
        defer { close(descriptor) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == length, fsync(descriptor) == 0 else {
            unlink(url.path)
            throw SecretKeyFileError.unwritable(path: url.path)
        }
        return key
    }

    /// The key in `url`, or `nil` when there is no file.
    private static func read(_ url: URL) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let existing = try Data(contentsOf: url)
        // A file another process is writing this instant may still be short: wait for it once.
        if existing.count < length {
            usleep(100_000)
            let settled = try Data(contentsOf: url)
            guard settled.count == length else { throw SecretKeyFileError.malformed(path: url.path, bytes: settled.count) }
            return Array(settled)
        }
        guard existing.count == length else { throw SecretKeyFileError.malformed(path: url.path, bytes: existing.count) }
        return Array(existing)
    }
}
