import Crypto
import Foundation
import ParleyAPI

/// The `Idempotency-Key` a send carries, so that repeating it after a lost answer (a dropped connection, a killed
/// process whose job runs again) cannot store the message twice.
///
/// The key is derived, not stored: HMAC-SHA256 under the device's password over what the send is (its purpose, its
/// recipient, its timestamp), the first 16 bytes in base64url. Every retry of one send, in this process or after a
/// restart, makes the same key; nobody without the password can guess it, which matters for sealed-sender sends,
/// whose keys the server scopes only by recipient.
enum SendIdempotencyKey {
    /// The key of the send of `purpose` (`message` for a message's first delivery, `resend:<device>` for the answer to a
    /// retry receipt: the same timestamp, a different send) to `recipient` at `timestamp`, made by `credentials`' device.
    static func make(purpose: String, recipient: String, timestamp: UInt64, credentials: DeviceCredentials) -> String {
        let label = "parley send idempotency key|\(credentials.deviceId)|\(purpose)|\(recipient)|\(timestamp)"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(label.utf8), using: SymmetricKey(data: Data(credentials.password.utf8)))
        return Base64URL.encode(Array(mac.prefix(16)))
    }
}
