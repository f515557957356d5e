import Foundation

/// The generators of zkcredential, the credential system of libsignal's newer credentials (the auth credential with
/// PNI among them): 13 points squeezed from a ``ShoSha256`` over its label.
enum ZKCredentialSystem {
    struct Generators: Sendable {
        let w, wPrime, x0, x1, v, z: RistrettoPoint
        /// G_y0 … G_y6.
        let y: [RistrettoPoint]

        /// libsignal's serialization (its 416-byte `SYSTEM_HARDCODED`): in the order squeezed.
        var serialized: [UInt8] { ([w, wPrime, x0, x1, v, z] + y).flatMap(\.bytes) }
    }

    static let generators: Generators = {
        var sho = ShoSha256(label: "Signal_ZKCredential_ConstantSystemParams_generate_20230410")
        let points = (0..<13).map { _ in sho.point() }
        return Generators(
            w: points[0], wPrime: points[1], x0: points[2], x1: points[3], v: points[4], z: points[5], y: Array(points[6..<13]))
    }()
}
