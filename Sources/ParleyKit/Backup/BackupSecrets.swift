import Crypto
import Foundation

/// What a PIN backup holds: everything a new machine needs to become the account's primary device again. It travels
/// only as ``sealed(with:)`` output, AES-256-GCM under the key the PIN and the server's OPRF produce together.
public struct BackupSecrets: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The layout of this struct (1).
    public let version: Int
    /// The account (lowercase UUID).
    public let accountId: String
    /// The username, as registered.
    public let username: String
    /// The primary device's credential.
    public let password: String
    /// The serialized identity key pair (public and private key).
    public let identityKeyPair: Data
    /// The registration id the backed-up installation had (a restore picks another, so peers rebuild their sessions).
    public let registrationId: UInt32

    /// Secrets of the current layout.
    public init(accountId: String, username: String, password: String, identityKeyPair: Data, registrationId: UInt32) {
        version = 1
        self.accountId = accountId
        self.username = username
        self.password = password
        self.identityKeyPair = identityKeyPair
        self.registrationId = registrationId
    }

    /// Binds the ciphertext to its purpose.
    private static let associatedData = Array("parley-backup-v1 secrets".utf8)

    /// JSON of the secrets, sealed with AES-256-GCM under `key`: nonce (12) ‖ ciphertext ‖ tag (16).
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        let plaintext = try JSONEncoder().encode(self)
        do {
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: Self.associatedData).combined else {
                throw ParleyError.backup(.malformed("AES-GCM produced no combined box"))
            }
            return Array(combined)
        } catch ParleyError.backup(let reason) {
            throw ParleyError.backup(reason)
        } catch {
            throw ParleyError.backup(.malformed("the backup could not be encrypted"))
        }
    }

    /// The secrets in `blob`, or ``ParleyError/Backup/malformed(_:)`` when it does not open under `key` or does not decode.
    public static func opened(_ blob: [UInt8], with key: SymmetricKey) throws -> BackupSecrets {
        let plaintext: Data
        do {
            plaintext = try AES.GCM.open(try AES.GCM.SealedBox(combined: blob), using: key, authenticating: associatedData)
        } catch {
            throw ParleyError.backup(.malformed("the backup does not decrypt"))
        }
        do {
            let secrets = try JSONDecoder().decode(BackupSecrets.self, from: plaintext)
            guard secrets.version == 1 else {
                throw ParleyError.backup(.malformed("backup layout \(secrets.version) is newer than this client"))
            }
            return secrets
        } catch ParleyError.backup(let reason) {
            throw ParleyError.backup(reason)
        } catch {
            throw ParleyError.backup(.malformed("the decrypted backup does not decode"))
        }
    }

    /// Names the account only: the keys and the credential are never printed.
    public var description: String { "BackupSecrets(\(username), account \(accountId), keys redacted)" }
}
