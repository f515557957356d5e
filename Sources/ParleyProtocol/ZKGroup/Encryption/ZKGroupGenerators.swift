import Foundation

/// The constant generators of zkgroup's two encryption systems, each the first two points of a SHO over its label.
enum ZKGroupGenerators {
    /// G_a1, G_a2: service ids.
    static let serviceId: (RistrettoPoint, RistrettoPoint) = pair("Signal_ZKGroup_20200424_Constant_UidEncryption_SystemParams_Generate")
    /// G_b1, G_b2: profile keys.
    static let profileKey: (RistrettoPoint, RistrettoPoint) = pair(
        "Signal_ZKGroup_20200424_Constant_ProfileKeyEncryption_SystemParams_Generate")

    private static func pair(_ label: String) -> (RistrettoPoint, RistrettoPoint) {
        var sho = ShoHmacSha256(label: label, data: [UInt8]())
        let first = sho.point()
        return (first, sho.point())
    }
}
