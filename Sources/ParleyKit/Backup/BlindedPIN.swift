import Crypto
import ParleyPassword

/// The client's side of the PIN backup's oblivious PRF (2HashDH over ristretto255).
///
/// The PIN is hashed to an element P = ristretto255_from_hash(SHA-512("parley-backup-v1 pin" ‖ key ‖ 0x00 ‖ PIN)),
/// where the key is what a new machine finds the backup by, lowercased: the account id (a lowercase UUID, found from the
/// username's hash; ``BackupKDFParameters/PINInput/accountId``) or, for backups made under one, the registered name
/// (unique whatever its case; ``BackupKDFParameters/PINInput/registeredName``). It is sent as B = r·P for a random scalar r. The server answers E = k·B with its per-account key k;
/// ``finalize(evaluatedElement:)`` unblinds N = r⁻¹·E = k·P and returns SHA-512(PIN ‖ P ‖ N). The server learns
/// nothing about the PIN (B is uniformly random), and nobody without k — a copy of the server's database included —
/// can compute the output for a guess.
public struct BlindedPIN: Sendable {
    /// B, sent to the server.
    public let blindedElement: [UInt8]
    private let pin: [UInt8]
    private let element: [UInt8]
    private let blind: [UInt8]

    private static let domain = Array("parley-backup-v1 pin".utf8)

    /// Blinds `pin` (its UTF-8 bytes) for the backup found by `key` (an account id or a registered name) with a fresh
    /// random scalar.
    ///
    /// - Throws: ``ParleyError/Backup/malformed(_:)`` when libsodium cannot run.
    public init(pin: String, keyedBy key: String) throws {
        let pinBytes = Array(pin.utf8)
        var input = Self.domain
        input += Array(key.lowercased().utf8)
        input.append(0)
        input += pinBytes
        guard let element = Ristretto255.element(fromHash: Array(SHA512.hash(data: input))), let blind = Ristretto255.randomScalar() else {
            throw ParleyError.backup(.malformed("libsodium failed to initialise"))
        }
        guard let blinded = Ristretto255.multiply(blind, element) else {
            throw ParleyError.backup(.malformed("the PIN could not be blinded"))
        }
        self.pin = pinBytes
        self.element = element
        self.blind = blind
        blindedElement = blinded
    }

    /// The PRF output (64 bytes) from the server's answer E: SHA-512(PIN ‖ P ‖ r⁻¹·E).
    ///
    /// - Throws: ``ParleyError/Backup/malformed(_:)`` when E is not a ristretto255 element.
    public func finalize(evaluatedElement: [UInt8]) throws -> [UInt8] {
        guard let unblind = Ristretto255.inverse(of: blind) else { throw ParleyError.backup(.malformed("the zero scalar has no inverse")) }
        guard let unblinded = Ristretto255.multiply(unblind, evaluatedElement) else {
            throw ParleyError.backup(.malformed("the server's evaluation is not a ristretto255 element"))
        }
        return Array(SHA512.hash(data: pin + element + unblinded))
    }
}
