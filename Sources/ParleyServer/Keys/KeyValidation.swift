import Foundation
import ParleyAPI
import ParleyProtocol

/// Checks uploaded keys before anything is stored: encodings, key formats and identity-key signatures.
enum KeyValidation {
    /// Standard base64 → bytes, or a 400 naming the field.
    static func bytes(_ base64: String, field: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: base64) else { throw ServerError.badRequest("\(field) is not base64") }
        return [UInt8](data)
    }

    /// A signed Curve25519 prekey, signature checked against `identity`.
    static func signedPreKey(_ entity: SignedPreKeyEntity, identity: PublicKey) throws -> StoredPreKey {
        let key = try bytes(entity.publicKey, field: "signedPreKey.publicKey")
        guard (try? PublicKey(key)) != nil else { throw ServerError.badRequest("signedPreKey is not a 33-byte Curve25519 key") }
        return try signed(entity, key: key, identity: identity, what: "signedPreKey")
    }

    /// A signed KEM prekey (type 0x08 or 0x0A, 1569 bytes), signature checked against `identity`.
    static func kemPreKey(_ entity: SignedPreKeyEntity, identity: PublicKey, what: String) throws -> StoredPreKey {
        let key = try bytes(entity.publicKey, field: "\(what).publicKey")
        guard (try? KEMPublicKey(key)) != nil else { throw ServerError.badRequest("\(what) is not a KEM public key") }
        return try signed(entity, key: key, identity: identity, what: what)
    }

    /// A one-time Curve25519 prekey.
    static func preKey(_ entity: PreKeyEntity) throws -> StoredPreKey {
        let key = try bytes(entity.publicKey, field: "preKeys.publicKey")
        guard (try? PublicKey(key)) != nil else { throw ServerError.badRequest("prekey \(entity.keyId) is not a 33-byte Curve25519 key") }
        return StoredPreKey(keyId: entity.keyId, publicKey: key, signature: nil)
    }

    private static func signed(_ entity: SignedPreKeyEntity, key: [UInt8], identity: PublicKey, what: String) throws -> StoredPreKey {
        let signature = try bytes(entity.signature, field: "\(what).signature")
        guard (try? identity.verifySignature(message: key, signature: signature)) == true else {
            throw ServerError.badRequest("\(what) \(entity.keyId): signature does not verify against the identity key")
        }
        return StoredPreKey(keyId: entity.keyId, publicKey: key, signature: signature)
    }
}
