import Foundation

/// The deterministic attribute encryption of zkgroup (Chase–Perrin–Zaverucha, "The Signal Private Group System",
/// §4.1): a plaintext is two points (M1, M2); a key pair is two scalars (a1, a2) with public A = a1·G1 + a2·G2; the
/// ciphertext is E1 = a1·M1 and E2 = a2·E1 + M2. The same plaintext always gives the same ciphertext under one key,
/// which is what lets a group's server compare members it cannot read.
struct ZKGroupEncryptionKeyPair: Sendable {
    let a1: RistrettoScalar
    let a2: RistrettoScalar
    let publicKey: RistrettoPoint

    /// The key pair the next two scalars of `sho` make, for the system whose generators are `g1` and `g2`.
    init(deriving sho: inout ShoHmacSha256, g1: RistrettoPoint, g2: RistrettoPoint) {
        a1 = sho.scalar()
        a2 = sho.scalar()
        publicKey = a1 * g1 + a2 * g2
    }

    /// A key pair read back from its parts.
    init(a1: RistrettoScalar, a2: RistrettoScalar, publicKey: RistrettoPoint) {
        self.a1 = a1
        self.a2 = a2
        self.publicKey = publicKey
    }

    /// (E1, E2) for the plaintext points (M1, M2).
    func encrypt(m1: RistrettoPoint, m2: RistrettoPoint) -> (RistrettoPoint, RistrettoPoint) {
        let e1 = a1 * m1
        return (e1, a2 * e1 + m2)
    }

    /// M2 and a1⁻¹·E1 (= M1) of a ciphertext, or `nil` for the ciphertext whose E1 is the generator (refused, as
    /// libsignal refuses it).
    func decryptToPoints(e1: RistrettoPoint, e2: RistrettoPoint) -> (m1: RistrettoPoint, m2: RistrettoPoint)? {
        guard e1 != RistrettoPoint.generator, let inverse = a1.inverse else { return nil }
        return (inverse * e1, e2 - a2 * e1)
    }
}
