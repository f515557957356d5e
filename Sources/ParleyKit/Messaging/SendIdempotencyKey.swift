import Crypto
import Foundation
import ParleyAPI
import ParleyProtocol

/// The `Idempotency-Key` a send carries, so that repeating it after a lost answer (a dropped connection, a killed
/// process whose job runs again) cannot store the message twice.
///
/// The key is derived, not stored: HMAC-SHA256 over what the send is (its device, purpose, recipient and timestamp)
/// under ``secret(_:)``, the first 16 bytes in base64url. Every retry of one send, in this process or after a restart,
/// makes the same key. The secret comes from the account's identity private key, which never leaves its devices: the
/// server, which sees a device's password on every request it signs, cannot recompute the keys of sealed-sender sends
/// (scoped only by recipient) and so tell which of them came from that device.
enum SendIdempotencyKey {
    /// The key of the send of `purpose` (`message` for a message's first delivery, `resend:<device>` for the answer to a
    /// retry receipt: the same timestamp, a different send) to `recipient` at `timestamp`, made by device `deviceId`.
    static func make(purpose: String, recipient: String, timestamp: UInt64, deviceId: UInt32, secret: SymmetricKey) -> String {
        let label = "parley send idempotency key|\(deviceId)|\(purpose)|\(recipient)|\(timestamp)"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: secret)
        return Base64URL.encode(Array(mac.prefix(16)))
    }

    /// The secret the keys are made under: HKDF-SHA256 of the account's identity private key (the same on every device
    /// of the account; the device id in each key keeps theirs apart).
    /// - Throws: ``ParleyError/notRegistered`` without an account.
    static func secret(_ db: StorageTransaction) throws -> SymmetricKey {
        guard let bytes = try LocalAccountTable.identityKeyPair(db) else { throw ParleyError.notRegistered }
        let identity = try IdentityKeyPair(bytes: bytes)
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: identity.privateKey.serialize()),
            info: Data("parley send idempotency key".utf8), outputByteCount: 32)
    }
}
