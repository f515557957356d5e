import Crypto
import Foundation
import ParleyAPI

/// Compact JSON Web Tokens (RFC 7519) as push providers want them: ES256 (VAPID, APNs) and RS256 (Google's OAuth
/// assertion for FCM). Only signing: the server never verifies one.
enum JSONWebToken {
    /// `header.claims.signature` with ES256 (RFC 7518 §3.4: the raw 64-byte r‖s signature).
    static func es256(header: [String: String], claims: [String: JSONClaim], key: P256.Signing.PrivateKey) throws -> String {
        let input = try signingInput(header: header.merging(["alg": "ES256", "typ": "JWT"]) { own, _ in own }, claims: claims)
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `header.claims.signature` with RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
    static func rs256(header: [String: String], claims: [String: JSONClaim], key: RSASigningKey) throws -> String {
        let input = try signingInput(header: header.merging(["alg": "RS256", "typ": "JWT"]) { own, _ in own }, claims: claims)
        return input + "." + Base64URL.encode(try key.sign(Data(input.utf8)))
    }

    private static func signingInput(header: [String: String], claims: [String: JSONClaim]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    }
}
