import CParleyDatabase
import Foundation

/// The 32-byte key that encrypts a client database, from a key file or a passphrase.
public struct DatabaseKey: Sendable {
    let bytes: [UInt8]

    /// A key from raw bytes (32 of them).
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 32 else { throw ParleyError.keyFile("a database key is 32 bytes, not \(bytes.count)") }
        self.bytes = bytes
    }

    /// The key in the file at `url`, created with 32 random bytes and mode 0600 if it does not exist yet.
    /// An existing file must be 32 bytes and readable only by its owner.
    public static func fromKeyFile(at url: URL) throws -> DatabaseKey {
        let manager = FileManager.default
        if !manager.fileExists(atPath: url.path) {
            var bytes = [UInt8](repeating: 0, count: 32)
            parley_random_bytes(&bytes, 32)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard manager.createFile(atPath: url.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                throw ParleyError.keyFile("cannot create \(url.path)")
            }
            return try DatabaseKey(bytes: bytes)
        }
        let attributes = try manager.attributesOfItem(atPath: url.path)
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw ParleyError.keyFile("\(url.path) is readable by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        guard let data = manager.contents(atPath: url.path) else { throw ParleyError.keyFile("cannot read \(url.path)") }
        return try DatabaseKey(bytes: [UInt8](data))
    }

    /// A key stretched from `passphrase` with Argon2id; the salt lives in `saltFile` (16 random bytes, made on first use).
    public static func fromPassphrase(_ passphrase: String, saltFile: URL) throws -> DatabaseKey {
        guard !passphrase.isEmpty else { throw ParleyError.invalidArgument("the database passphrase is empty") }
        var salt: [UInt8]
        if let data = FileManager.default.contents(atPath: saltFile.path) {
            guard data.count == 16 else { throw ParleyError.keyFile("\(saltFile.path) is not a 16-byte salt") }
            salt = [UInt8](data)
        } else {
            salt = [UInt8](repeating: 0, count: 16)
            parley_random_bytes(&salt, 16)
            try FileManager.default.createDirectory(at: saltFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: saltFile.path, contents: Data(salt), attributes: [.posixPermissions: 0o600]) else {
                throw ParleyError.keyFile("cannot create \(saltFile.path)")
            }
        }
        var key = [UInt8](repeating: 0, count: 32)
        let utf8 = Array(passphrase.utf8)
        let status = utf8.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { parley_kdf_argon2id($0.baseAddress, $0.count, salt, &key) }
        }
        guard status == 0 else { throw ParleyError.keyFile("not enough memory to stretch the passphrase") }
        return try DatabaseKey(bytes: key)
    }
}
