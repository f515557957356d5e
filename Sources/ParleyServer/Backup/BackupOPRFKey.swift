import Crypto
import Foundation
import ParleyPassword

/// The server's half of the PIN backup's oblivious PRF (2HashDH over ristretto255, libsodium).
///
/// Each account has its own key, k = HMAC-SHA512(server key, account id) reduced modulo the group order; the server
/// multiplies a client's blinded PIN element by it. The client alone can unblind the answer, and the server never
/// sees the PIN or the result. Neither k nor the server key is stored in the database: without the key file, a copy
/// of the database cannot evaluate the PRF, so it cannot check a single PIN guess. This is the one file of the
/// server that hands pointers to the ristretto255 functions.
public struct BackupOPRFKey: Sendable {
    private let serverKey: SymmetricKey
    /// Names the key without revealing it (16 bytes of HMAC-SHA256(key, "parley backup key id")): stored with each
    /// backup, so a process holding another key file refuses to evaluate instead of burning the user's guesses.
    public let keyId: [UInt8]

    /// The key for `serverKey` (the 32 bytes of `backup-oprf.key`).
    public init(serverKey: [UInt8]) {
        self.serverKey = SymmetricKey(data: serverKey)
        keyId = Array(HMAC<SHA256>.authenticationCode(for: Array("parley backup key id".utf8), using: self.serverKey).prefix(16))
    }

    /// `accountId`'s key applied to `blindedElement`: the 32-byte encoding of k·B, or `nil` when `blindedElement` is not
    /// the canonical encoding of a ristretto255 element other than the identity.
    public func evaluate(_ blindedElement: [UInt8], accountId: String) -> [UInt8]? {
        guard Ristretto255.isValidElement(blindedElement), let scalar = accountScalar(accountId) else { return nil }
        return Ristretto255.multiply(scalar, blindedElement)
    }

    /// k for `accountId`: HMAC-SHA512 under the server key, reduced modulo the group order.
    private func accountScalar(_ accountId: String) -> [UInt8]? {
        Ristretto255.reduce(Array(HMAC<SHA512>.authenticationCode(for: Array(accountId.utf8), using: serverKey)))
    }
}
