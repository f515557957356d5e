import Foundation

/// zkcredential's issuance (libsignal's `IssuanceProofBuilder`, legacy mode): the server MACs a credential's attribute
/// points and proves, in zero knowledge, that it did so with the key behind its public key; the client checks that proof
/// before it keeps the credential.
///
/// Slot 0 holds the public attributes, hashed to one point (M0) through a SHO keyed by the credential's label; hidden
/// attributes follow, two points each. The statement proves C_W = w·G_w + w'·G_w', G_V − I = x0·G_x0 + x1·G_x1 + Σ yᵢ·G_yᵢ
/// and V = w·G_w + x0·U + x1·tU + Σ yᵢ·Mᵢ.
struct ZKCredentialIssuance {
    private var publicAttributes: ShoHmacSha256
    private var hiddenPoints: [RistrettoPoint] = []

    /// The most attribute points a credential carries, slot 0 included.
    static let maximumPoints = 7

    /// An issuance for credentials of `label`.
    init(label: String) {
        publicAttributes = ShoHmacSha256(label: label)
    }

    /// Hashes a public attribute (its bytes) into slot 0.
    mutating func addPublicAttribute(_ bytes: [UInt8]) {
        publicAttributes.absorbAndRatchet(bytes)
    }

    /// Adds a hidden attribute's points.
    mutating func addAttribute(_ points: [RistrettoPoint]) {
        precondition(hiddenPoints.count + points.count < Self.maximumPoints, "zkcredential holds at most 6 hidden points")
        hiddenPoints += points
    }

    /// M0 (the public attributes) then the hidden points.
    private var points: [RistrettoPoint] {
        var sho = publicAttributes
        return [sho.point()] + hiddenPoints
    }

    private var statement: PokshoStatement {
        let count = hiddenPoints.count + 1
        var statement = PokshoStatement()
        statement.add("C_W", [("w", "G_w"), ("wprime", "G_wprime")])
        statement.add("G_V-I", [("x0", "G_x0"), ("x1", "G_x1")] + (0..<count).map { ("y\($0)", "G_y\($0)") })
        statement.add("V", [("w", "G_w"), ("x0", "U"), ("x1", "tU")] + (0..<count).map { ("y\($0)", "M\($0)") })
        return statement
    }

    private func pointArguments(publicKey: ZKCredentialPublicKey, mac: ZKCredentialMAC, points: [RistrettoPoint]) -> [String:
        RistrettoPoint]
    {
        let system = ZKCredentialSystem.generators
        var arguments: [String: RistrettoPoint] = [
            "C_W": publicKey.cW, "G_w": system.w, "G_wprime": system.wPrime, "G_V-I": system.v - publicKey.i(attributeCount: points.count),
            "G_x0": system.x0, "G_x1": system.x1, "V": mac.v, "U": mac.u, "tU": mac.t * mac.u,
        ]
        for (index, point) in points.enumerated() {
            arguments["G_y\(index)"] = system.y[index]
            arguments["M\(index)"] = point
        }
        return arguments
    }

    /// The credential over the attributes under `keyPair`, and the proof of it, both derived from `randomness`.
    /// - Throws: ``SignalError/internalError(_:)`` if the proof cannot be made (it always can for a consistent key).
    func issue(keyPair: ZKCredentialKeyPair, randomness: [UInt8]) throws -> (mac: ZKCredentialMAC, proof: [UInt8]) {
        let points = points
        var sho = ShoHmacSha256(label: "Signal_ZKCredential_Issuance_20230410", data: randomness)
        let t = sho.scalar()
        let u = sho.point()
        var v = keyPair.bigW + (keyPair.x0 + keyPair.x1 * t) * u
        for (index, point) in points.enumerated() { v = v + keyPair.y[index] * point }
        let mac = ZKCredentialMAC(t: t, u: u, v: v)
        var scalars = ["w": keyPair.w, "wprime": keyPair.wPrime, "x0": keyPair.x0, "x1": keyPair.x1]
        for index in points.indices { scalars["y\(index)"] = keyPair.y[index] }
        let proof = try statement.prove(
            scalars: scalars, points: pointArguments(publicKey: keyPair.credentialPublicKey, mac: mac, points: points), message: [],
            randomness: sho.squeezeAndRatchet(32))
        return (mac, proof)
    }

    /// Whether `proof` shows that `mac` was issued over these attributes under the key behind `publicKey`.
    func verify(publicKey: ZKCredentialPublicKey, mac: ZKCredentialMAC, proof: [UInt8]) -> Bool {
        statement.verify(proof: proof, points: pointArguments(publicKey: publicKey, mac: mac, points: points), message: [])
    }
}
