import Foundation
import ParleyAPI
import ParleyProtocol

/// Checks uploaded keys before anything is stored: key formats and identity-key signatures. Every front door (REST's
/// base64 JSON, gRPC's bytes) decodes its encoding and then passes the bytes through here.
enum KeyValidation {
    /// Standard base64 → bytes, or a 400 naming the field.
    static func bytes(_ base64: String, field: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: base64) else { throw ServerError.badRequest("\(field) is not base64") }
        return [UInt8](data)
    }

    /// A signed Curve25519 prekey, signature checked against `identity`.
    static func signedPreKey(_ key: UploadedKey, identity: PublicKey) throws -> StoredPreKey {
        guard (try? PublicKey(key.publicKey)) != nil else { throw ServerError.badRequest("signedPreKey is not a 33-byte Curve25519 key") }
        return try signed(key, identity: identity, what: "signedPreKey")
    }

    /// A signed KEM prekey (type 0x08 or 0x0A, 1569 bytes), signature checked against `identity`.
    static func kemPreKey(_ key: UploadedKey, identity: PublicKey, what: String) throws -> StoredPreKey {
        guard (try? KEMPublicKey(key.publicKey)) != nil else {
            throw ServerError.badRequest("\(what) \(key.keyId) is not a KEM public key")
        }
        return try signed(key, identity: identity, what: what)
    }

    /// A one-time Curve25519 prekey.
    static func preKey(_ key: UploadedKey) throws -> StoredPreKey {
        guard (try? PublicKey(key.publicKey)) != nil else {
            throw ServerError.badRequest("prekey \(key.keyId) is not a 33-byte Curve25519 key")
        }
        return StoredPreKey(keyId: key.keyId, publicKey: key.publicKey, signature: nil)
    }

    private static func signed(_ key: UploadedKey, identity: PublicKey, what: String) throws -> StoredPreKey {
        guard let signature = key.signature, (try? identity.verifySignature(message: key.publicKey, signature: signature)) == true else {
            throw ServerError.badRequest("\(what) \(key.keyId): signature does not verify against the identity key")
        }
        return StoredPreKey(keyId: key.keyId, publicKey: key.publicKey, signature: signature)
    }
}
