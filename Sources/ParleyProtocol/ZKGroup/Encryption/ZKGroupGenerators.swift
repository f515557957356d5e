import Foundation

/// The constant generators of zkgroup's two encryption systems (the first two points of a SHO over each one's label) and
/// of its profile-key commitments (the first three).
enum ZKGroupGenerators {
    /// G_a1, G_a2: service ids.
    static let serviceId: (RistrettoPoint, RistrettoPoint) = pair("Signal_ZKGroup_20200424_Constant_UidEncryption_SystemParams_Generate")
    /// G_b1, G_b2: profile keys.
    static let profileKey: (RistrettoPoint, RistrettoPoint) = pair(
        "Signal_ZKGroup_20200424_Constant_ProfileKeyEncryption_SystemParams_Generate")

    /// G_j1, G_j2, G_j3: profile-key commitments.
    static let profileKeyCommitment: [RistrettoPoint] = {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Constant_ProfileKeyCommitment_SystemParams_Generate", data: [UInt8]())
        return (0..<3).map { _ in sho.point() }
    }()

    private static func pair(_ label: String) -> (RistrettoPoint, RistrettoPoint) {
        var sho = ShoHmacSha256(label: label, data: [UInt8]())
        let first = sho.point()
        return (first, sho.point())
    }
}
