import Crypto
import Foundation
import ParleyPassword
import Synchronization

/// Device credentials kept as Signal-Server keeps its tokens: a credential is a random token of 16–128 bytes made by
/// the client, so a fast salted hash is enough — no dictionary exists to guess from. The server stores
/// `hmac-sha256$<salt>$<mac>` (HMAC-SHA256 keyed by a 16-byte random salt, both base64) and checks it with
/// swift-crypto's constant-time comparison. A wrong credential costs one HMAC, so a flood of them cannot occupy the
/// server.
///
/// Credentials stored by earlier versions as Argon2id strings (`$argon2id$…`) still verify: at most
/// ``legacyVerificationLimit`` such slow checks run at once (more are refused as ``CredentialCheck/busy``), and a
/// successful one hands back the credential's new fast hash for the caller to store in its place.
public final class CredentialHasher: Sendable {
    /// The tag of the current format.
    static let scheme = "hmac-sha256"
    /// Bytes of random salt per credential.
    static let saltBytes = 16

    /// How many legacy Argon2id checks may run at the same time.
    public let legacyVerificationLimit: Int
    private let legacyChecksRunning = Mutex(0)

    /// A hasher; `legacyVerificationLimit` bounds the CPU and memory (64 MiB each) that legacy credentials can use.
    public init(legacyVerificationLimit: Int = 1) {
        self.legacyVerificationLimit = max(1, legacyVerificationLimit)
    }

    /// The stored form of a new credential.
    func hash(_ credential: [UInt8]) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Self.encode(salt: salt, mac: Self.mac(credential, salt: salt))
    }

    /// Checks `credential` against `storedHash`.
    func verify(_ credential: [UInt8], against storedHash: String) -> CredentialCheck {
        if storedHash.hasPrefix("$argon2") { return verifyLegacy(credential, against: storedHash) }
        let parts = storedHash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.scheme,
            let salt = Data(base64Encoded: String(parts[1])), salt.count == Self.saltBytes,
            let mac = Data(base64Encoded: String(parts[2])), mac.count == SHA256.byteCount
        else { return .invalid }
        let valid = HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: credential, using: SymmetricKey(data: salt))
        return valid ? .valid : .invalid
    }

    private func verifyLegacy(_ credential: [UInt8], against storedHash: String) -> CredentialCheck {
        let admitted = legacyChecksRunning.withLock { running in
            guard running < legacyVerificationLimit else { return false }
            running += 1
            return true
        }
        guard admitted else { return .busy }
        defer { legacyChecksRunning.withLock { $0 -= 1 } }
        let matches = Argon2id.verify(credential, against: storedHash)
        return matches ? .validNeedsRehash(hash(credential)) : .invalid
    }

    private static func mac(_ credential: [UInt8], salt: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: credential, using: SymmetricKey(data: salt)))
    }

    private static func encode(salt: [UInt8], mac: [UInt8]) -> String {
        "\(scheme)$\(Data(salt).base64EncodedString())$\(Data(mac).base64EncodedString())"
    }
}

/// What checking a presented credential found.
enum CredentialCheck: Equatable {
    /// The credential matches.
    case valid
    /// The credential matches a legacy slow hash; the associated value is its fast hash, to be stored instead.
    case validNeedsRehash(String)
    /// The credential does not match (or the stored hash is unreadable).
    case invalid
    /// A legacy slow hash could not be checked now: too many such checks are running.
    case busy
}
