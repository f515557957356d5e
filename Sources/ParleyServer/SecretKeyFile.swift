import Foundation

/// A 32-byte random secret kept in a file of its own (mode 0600) in the data directory, made on first start and
/// kept beside the database, never in it: the decoy key of the hash banks' prefix answers (`dcd-decoy.key`) and the
/// PIN backups' OPRF key (`backup-oprf.key`).
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
        if FileManager.default.fileExists(atPath: url.path) {
            let existing = try Data(contentsOf: url)
            guard existing.count == length else { throw SecretKeyFileError.malformed(path: url.path, bytes: existing.count) }
            return Array(existing)
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(key), attributes: [.posixPermissions: 0o600]) else {
            throw SecretKeyFileError.unwritable(path: url.path)
        }
        return key
    }
}
