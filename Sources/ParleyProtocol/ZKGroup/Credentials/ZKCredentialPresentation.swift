import Foundation

/// A zkcredential presentation (libsignal's `PresentationProof`, legacy mode): commitments to a credential blinded by a
/// fresh z, and a poksho proof that they hide a valid credential whose hidden attributes are what the accompanying
/// ciphertexts encrypt under the group's keys. The server learns the ciphertexts, never the attributes or the credential.
///
/// Serialized: C_x0 ‖ C_x1 ‖ C_V ‖ u64 count ‖ C_y… ‖ u64 length ‖ proof.
struct ZKCredentialPresentation: Sendable {
    let cX0, cX1, cV: RistrettoPoint
    let cY: [RistrettoPoint]
    let proof: [UInt8]

    /// A hidden attribute as the prover knows it: its two points and the key pair that encrypts it.
    struct ProverAttribute {
        let points: [RistrettoPoint]
        let domain: ZKCredentialEncryptionDomain
        let keyPair: ZKGroupEncryptionKeyPair
    }

    /// A hidden attribute as the verifier knows it: its ciphertext (E1, E2) and the public key it is under.
    struct VerifierAttribute {
        let e1: RistrettoPoint
        let e2: RistrettoPoint
        let domain: ZKCredentialEncryptionDomain
        let publicKey: RistrettoPoint
    }

    /// A proof's longest length poksho can make (255 responses and the challenge): what a reader accepts.
    private static let maximumProofLength = 32 * 256

    var serialized: [UInt8] {
        var bytes = cX0.bytes + cX1.bytes + cV.bytes + ZKGroupReader.littleEndian(UInt64(cY.count))
        bytes += cY.flatMap(\.bytes) + ZKGroupReader.littleEndian(UInt64(proof.count)) + proof
        return bytes
    }

    /// The presentation `reader` holds next; at most seven commitments C_y and a proof no longer than poksho's longest.
    static func read(_ reader: inout ZKGroupReader) throws -> ZKCredentialPresentation {
        let cX0 = try reader.point()
        let cX1 = try reader.point()
        let cV = try reader.point()
        let cY = try (0..<reader.count(atMost: ZKCredentialIssuance.maximumPoints)).map { _ in try reader.point() }
        let proof = try reader.bytes(reader.count(atMost: maximumProofLength))
        return ZKCredentialPresentation(cX0: cX0, cX1: cX1, cV: cV, cY: cY, proof: proof)
    }

    /// The statement over the attributes, as `(domain, first point index, second point index)`, in the order added.
    private static func statement(attributes: [(domain: ZKCredentialEncryptionDomain, first: Int, second: Int)]) -> PokshoStatement {
        var statement = PokshoStatement()
        statement.add("Z", [("z", "I")])
        statement.add("C_x1", [("t", "C_x0"), ("z0", "G_x0"), ("z", "G_x1")])
        let domains = distinctDomains(attributes.map(\.domain))
        for domain in domains { statement.add("0", [("z1_\(domain.id)", "I"), ("a1_\(domain.id)", "Z")]) }
        if !domains.isEmpty {
            statement.add("sum(A)", domains.flatMap { [("a1_\($0.id)", "G_a1_\($0.id)"), ("a2_\($0.id)", "G_a2_\($0.id)")] })
        }
        for attribute in attributes {
            let id = attribute.domain.id
            statement.add("E_A\(attribute.first)", [("a1_\(id)", "C_y\(attribute.first)"), ("z1_\(id)", "G_y\(attribute.first)")])
            statement.add(
                "C_y\(attribute.second)-E_A\(attribute.second)", [("z", "G_y\(attribute.second)"), ("a2_\(id)", "-E_A\(attribute.first)")])
        }
        statement.add("C_y0", [("z", "G_y0")])
        return statement
    }

    private static func distinctDomains(_ domains: [ZKCredentialEncryptionDomain]) -> [ZKCredentialEncryptionDomain] {
        domains.reduce(into: []) { found, domain in if !found.contains(where: { $0.id == domain.id }) { found.append(domain) } }
    }

    /// The points both sides name the same way: I, the commitments, the generators and the encryption public keys.
    private static func sharedPoints(
        i: RistrettoPoint, cX0: RistrettoPoint, cX1: RistrettoPoint, cY: [RistrettoPoint],
        domains: [(ZKCredentialEncryptionDomain, RistrettoPoint)]
    ) -> [String: RistrettoPoint] {
        let system = ZKCredentialSystem.generators
        var points: [String: RistrettoPoint] = ["I": i, "C_x0": cX0, "C_x1": cX1, "G_x0": system.x0, "G_x1": system.x1, "C_y0": cY[0]]
        if !domains.isEmpty {
            points["0"] = RistrettoPoint.identity
            var sum = RistrettoPoint.identity
            for (domain, publicKey) in domains {
                points["G_a1_\(domain.id)"] = domain.g1
                points["G_a2_\(domain.id)"] = domain.g2
                sum = sum + publicKey
            }
            // As libsignal: keys summing to the identity leave the point out, and no proof holds.
            if sum != RistrettoPoint.identity { points["sum(A)"] = sum }
        }
        for index in cY.indices { points["G_y\(index)"] = system.y[index] }
        return points
    }

    /// Lays hidden attributes of two points each after slot 0.
    private static func layout(_ domains: [ZKCredentialEncryptionDomain]) -> [(
        domain: ZKCredentialEncryptionDomain, first: Int, second: Int
    )] {
        domains.enumerated().map { (domain: $0.element, first: 1 + 2 * $0.offset, second: 2 + 2 * $0.offset) }
    }

    /// A presentation of `mac`, a credential over `attributes` issued under `publicKey`, blinded by `randomness`, and
    /// the attributes' ciphertexts (E1, E2) it proves, in order: what the presentation is sent with.
    /// - Throws: ``SignalError/internalError(_:)`` if the proof cannot be made (the credential is not over the attributes).
    static func present(
        publicKey: ZKCredentialPublicKey, mac: ZKCredentialMAC, attributes: [ProverAttribute], randomness: [UInt8]
    ) throws -> (presentation: ZKCredentialPresentation, ciphertexts: [(e1: RistrettoPoint, e2: RistrettoPoint)]) {
        precondition(attributes.allSatisfy { $0.points.count == 2 }, "hidden attributes are two points each")
        let system = ZKCredentialSystem.generators
        var sho = ShoHmacSha256(label: "Signal_ZKCredential_Presentation_20230410", data: randomness)
        let z = sho.scalar()
        let attributePoints = [RistrettoPoint.identity] + attributes.flatMap(\.points)
        let cY = attributePoints.enumerated().map { z * system.y[$0.offset] + $0.element }
        let cX0 = z * system.x0 + mac.u
        let cV = z * system.v + mac.v
        let cX1 = z * system.x1 + mac.t * mac.u
        let i = publicKey.i(attributeCount: attributePoints.count)
        let bigZ = z * i
        var scalars = ["z": z, "t": mac.t, "z0": -(z * mac.t)]
        var domainKeys: [(ZKCredentialEncryptionDomain, RistrettoPoint)] = []
        for attribute in attributes where !domainKeys.contains(where: { $0.0.id == attribute.domain.id }) {
            let id = attribute.domain.id
            scalars["a1_\(id)"] = attribute.keyPair.a1
            scalars["a2_\(id)"] = attribute.keyPair.a2
            scalars["z1_\(id)"] = -(z * attribute.keyPair.a1)
            domainKeys.append((attribute.domain, attribute.keyPair.publicKey))
        }
        let laid = layout(attributes.map(\.domain))
        var points = sharedPoints(i: i, cX0: cX0, cX1: cX1, cY: cY, domains: domainKeys)
        points["Z"] = bigZ
        var ciphertexts: [(e1: RistrettoPoint, e2: RistrettoPoint)] = []
        for (attribute, place) in zip(attributes, laid) {
            points["C_y\(place.first)"] = cY[place.first]
            let (e1, e2) = attribute.keyPair.encrypt(m1: attributePoints[place.first], m2: attributePoints[place.second])
            ciphertexts.append((e1, e2))
            points["E_A\(place.first)"] = e1
            points["-E_A\(place.first)"] = RistrettoPoint.identity - e1
            points["C_y\(place.second)-E_A\(place.second)"] = cY[place.second] - e2
        }
        let proof = try statement(attributes: laid).prove(
            scalars: scalars, points: points, message: [], randomness: sho.squeezeAndRatchet(32))
        return (ZKCredentialPresentation(cX0: cX0, cX1: cX1, cV: cV, cY: cY, proof: proof), ciphertexts)
    }

    /// Whether this presents a credential issued under `keyPair` for `label`'s `publicAttributes` whose hidden
    /// attributes are what `attributes` encrypt.
    func verify(
        keyPair: ZKCredentialKeyPair, label: String, publicAttributes: [[UInt8]], attributes: [VerifierAttribute]
    ) -> Bool {
        guard cY.count == 1 + 2 * attributes.count, cY.count <= ZKCredentialIssuance.maximumPoints else { return false }
        var publicSho = ShoHmacSha256(label: label)
        for attribute in publicAttributes { publicSho.absorbAndRatchet(attribute) }
        let m0 = publicSho.point()
        var bigZ = cV - keyPair.bigW - keyPair.x0 * cX0 - keyPair.x1 * cX1
        for (index, commitment) in cY.enumerated() { bigZ = bigZ - keyPair.y[index] * commitment }
        bigZ = bigZ - keyPair.y[0] * m0
        var domainKeys: [(ZKCredentialEncryptionDomain, RistrettoPoint)] = []
        for attribute in attributes {
            if let known = domainKeys.first(where: { $0.0.id == attribute.domain.id }) {
                guard known.1 == attribute.publicKey else { return false }
            } else {
                domainKeys.append((attribute.domain, attribute.publicKey))
            }
        }
        let laid = Self.layout(attributes.map(\.domain))
        var points = Self.sharedPoints(
            i: keyPair.credentialPublicKey.i(attributeCount: cY.count), cX0: cX0, cX1: cX1, cY: cY, domains: domainKeys)
        points["Z"] = bigZ
        for (attribute, place) in zip(attributes, laid) {
            points["C_y\(place.first)"] = cY[place.first]
            points["E_A\(place.first)"] = attribute.e1
            points["-E_A\(place.first)"] = RistrettoPoint.identity - attribute.e1
            points["C_y\(place.second)-E_A\(place.second)"] = cY[place.second] - attribute.e2
        }
        return Self.statement(attributes: laid).verify(proof: proof, points: points, message: [])
    }
}
