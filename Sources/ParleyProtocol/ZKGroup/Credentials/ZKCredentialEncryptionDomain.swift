import Foundation

/// An encryption system a zkcredential presentation proves attributes encrypted under (libsignal's `attributes::Domain`):
/// its id, which names its scalars and points in the proof, and its two generators.
struct ZKCredentialEncryptionDomain: Sendable {
    let id: String
    let g1: RistrettoPoint
    let g2: RistrettoPoint

    /// Service ids (``UuidCiphertext``).
    static let serviceId = ZKCredentialEncryptionDomain(
        id: "Signal_ZKGroup_20230419_UidEncryption", g1: ZKGroupGenerators.serviceId.0, g2: ZKGroupGenerators.serviceId.1)
}
