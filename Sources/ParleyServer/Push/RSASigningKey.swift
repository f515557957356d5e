import CryptoExtras
import Foundation

/// An RSA private key (2048 bits or more) that signs RS256 tokens: a Google service account's key.
struct RSASigningKey: Sendable {
    private let key: _RSA.Signing.PrivateKey

    /// The key in PEM (PKCS#1 or PKCS#8, as Google's service-account files carry it).
    init(pemRepresentation: String) throws {
        key = try _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation)
    }

    /// RSASSA-PKCS1-v1_5 over SHA-256 of `data`: what RS256 names (swift-crypto calls this padding "insecure" because
    /// PSS is preferred for new protocols; JWT's RS256 requires v1.5).
    func sign(_ data: Data) throws -> Data {
        try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
    }
}
