import Foundation

/// The generators of zkgroup's original (pre-zkcredential) keyed-verification credentials: 17 points squeezed from one
/// SHO, named as libsignal names them. Server key pairs still carry keys of this system (``LegacyCredentialKeyPair``).
enum LegacyCredentialSystem {
    struct Generators: Sendable {
        let w, wPrime, x0, x1, v, z: RistrettoPoint
        /// G_y1 … G_y6 (index 0 is G_y1).
        let y: [RistrettoPoint]
        /// G_m1 … G_m5.
        let m: [RistrettoPoint]

        /// The order libsignal serializes them in (its 544-byte `SYSTEM_HARDCODED`).
        var serialized: [UInt8] { ([w, wPrime, x0, x1] + y + m + [v, z]).flatMap(\.bytes) }
    }

    static let generators: Generators = {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Constant_Credentials_SystemParams_Generate", data: [UInt8]())
        // Squeezed in this order: G_w, G_w', G_x0, G_x1, G_y1…G_y4, G_m1…G_m4, G_V, G_z, G_y5, G_y6, G_m5.
        let points = (0..<17).map { _ in sho.point() }
        return Generators(
            w: points[0], wPrime: points[1], x0: points[2], x1: points[3], v: points[12], z: points[13],
            y: Array(points[4..<8]) + [points[14], points[15]], m: Array(points[8..<12]) + [points[16]])
    }()

    /// An expiration time as a credential attribute: m·G_m5, m a SHO scalar of the time (seconds, big-endian).
    static func expirationPoint(_ expiration: UInt64) -> RistrettoPoint {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20220524_Timestamp_Calc_m", data: ShoHmacSha256.bigEndian(expiration))
        return sho.scalar() * generators.m[4]
    }
}
