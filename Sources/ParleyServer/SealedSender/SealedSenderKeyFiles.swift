import Foundation
import ParleyProtocol

/// The sealed-sender keys in the data directory, beside (never in) the database:
/// - `sealed-sender-trust-root.key`: the trust root's private key (32 bytes, mode 0600). Only making a server
///   certificate needs it; an operator may move it offline once the server certificate exists.
/// - `sealed-sender-trust-root.pub`: its public key (33 bytes), which clients pin.
/// - `sealed-sender-server.key`: the server key sender certificates are signed with (32 bytes, mode 0600).
/// - `sealed-sender-server.cert`: the trust root's `ServerCertificate` for that key.
public enum SealedSenderKeyFiles {
    static let trustRootKey = "sealed-sender-trust-root.key"
    static let trustRootPublicKey = "sealed-sender-trust-root.pub"
    static let serverKey = "sealed-sender-server.key"
    static let serverCertificate = "sealed-sender-server.cert"

    /// The settings kept in `directory`; on first start a trust root, a server key and server certificate 1 are made.
    /// - Throws: ``SealedSenderSettingsError`` for files that do not parse or do not fit together, or when a server
    ///   certificate must be made and the trust root's private key is offline; ``SecretKeyFileError`` when a key file
    ///   cannot be written.
    public static func load(in directory: URL) throws -> SealedSenderSettings {
        if let settings = try existing(in: directory) { return settings }
        let root = try trustRoot(in: directory, creating: true)
        let key = try PrivateKey(try SecretKeyFile.load(at: directory.appendingPathComponent(serverKey)))
        return try certify(key, id: 1, root: root, in: directory)
    }

    /// Makes a new server key and a server certificate for it with the next key id, signed by the trust root (whose
    /// private key is read from `trustRootKeyFile`, or from the data directory); certificates issued afterwards use it.
    /// Running servers pick it up when restarted.
    /// - Throws: ``SealedSenderSettingsError/trustRootOffline(path:)`` without the trust root's private key, and the
    ///   errors of ``load(in:)``.
    public static func rotate(in directory: URL, trustRootKeyFile: URL? = nil) throws -> SealedSenderSettings {
        let current = try load(in: directory)
        let root: PrivateKey
        if let trustRootKeyFile {
            guard let bytes = FileManager.default.contents(atPath: trustRootKeyFile.path) else {
                throw SealedSenderSettingsError.trustRootOffline(path: trustRootKeyFile.path)
            }
            guard let key = try? PrivateKey(bytes), key.publicKey == current.trustRoot else {
                throw SealedSenderSettingsError.malformedFile(path: trustRootKeyFile.path)
            }
            root = key
        } else {
            root = try trustRoot(in: directory, creating: false)
        }
        let key = PrivateKey.generate()
        try write(key.serialize(), to: directory.appendingPathComponent(serverKey), private: true)
        return try certify(key, id: current.serverCertificate.keyId &+ 1, root: root, in: directory)
    }

    /// The settings when all three public parts are there, else `nil`.
    private static func existing(in directory: URL) throws -> SealedSenderSettings? {
        let files = [trustRootPublicKey, serverKey, serverCertificate].map { directory.appendingPathComponent($0) }
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        func parse<T>(_ url: URL, _ make: (Data) throws -> T) throws -> T {
            guard let data = FileManager.default.contents(atPath: url.path), let value = try? make(data) else {
                throw SealedSenderSettingsError.malformedFile(path: url.path)
            }
            return value
        }
        return try SealedSenderSettings(
            trustRoot: try parse(files[0]) { try PublicKey($0) },
            serverCertificate: try parse(files[2]) { try ServerCertificate($0) },
            serverKey: try parse(files[1]) { try PrivateKey($0) })
    }

    /// The trust root's private key from the data directory (made when `creating`), with its public key written
    /// beside it.
    private static func trustRoot(in directory: URL, creating: Bool) throws -> PrivateKey {
        let url = directory.appendingPathComponent(trustRootKey)
        guard creating || FileManager.default.fileExists(atPath: url.path) else {
            throw SealedSenderSettingsError.trustRootOffline(path: url.path)
        }
        let root = try PrivateKey(try SecretKeyFile.load(at: url))
        let publicURL = directory.appendingPathComponent(trustRootPublicKey)
        if FileManager.default.contents(atPath: publicURL.path) != root.publicKey.serialize() {
            try write(root.publicKey.serialize(), to: publicURL, private: false)
        }
        return root
    }

    private static func certify(_ key: PrivateKey, id: UInt32, root: PrivateKey, in directory: URL) throws -> SealedSenderSettings {
        let certificate = try ServerCertificate(keyId: id, publicKey: key.publicKey, trustRoot: root)
        try write(certificate.serialize(), to: directory.appendingPathComponent(serverCertificate), private: false)
        return try SealedSenderSettings(trustRoot: root.publicKey, serverCertificate: certificate, serverKey: key)
    }

    /// Writes `data` to a temporary file and renames it over `url`, so a reader sees the old or the new file whole.
    private static func write(_ data: Data, to url: URL, private: Bool) throws {
        let temporary = url.appendingPathExtension("new-\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: `private` ? 0o600 : 0o644])
        else { throw SecretKeyFileError.unwritable(path: temporary.path) }
        guard rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw SecretKeyFileError.unwritable(path: url.path)
        }
    }
}
