import Foundation

/// An expiring profile-key credential shown to a group's server (presentation version 4): the member's ACI and profile
/// key encrypted under the group's keys, and proof that a credential from this server, not yet expired, MACs exactly
/// them — so a member cannot put someone else's profile key beside their entry. 721 bytes: `0x03`, C_x0, C_x1,
/// C_y1…C_y5, C_V, the proof, the ``UuidCiphertext`` and ``ProfileKeyCiphertext`` bodies, the expiration.
///
/// Only version 4 is read: libsignal still parses the three older versions but never verifies them.
public final class ProfileKeyCredentialPresentation: ByteArray, @unchecked Sendable {
    static let version: UInt8 = 3
    /// The proof's length: the challenge and nine responses (z, t, z0, a1, a2, b1, b2, z1, z2).
    static let proofLength = 320

    let cX0, cX1: RistrettoPoint
    /// C_y1 … C_y5.
    let cY: [RistrettoPoint]
    let cV: RistrettoPoint
    let proof: [UInt8]
    let uuidCiphertext: UuidCiphertext
    let profileKeyCiphertext: ProfileKeyCiphertext
    let expiration: UInt64

    /// The presentation `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another version or length, a non-canonical point or trailing bytes.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ProfileKeyCredentialPresentation")
        try reader.expectByte(Self.version)
        cX0 = try reader.point()
        cX1 = try reader.point()
        cY = try (0..<5).map { _ in try reader.point() }
        cV = try reader.point()
        proof = try reader.bytes(reader.count(atMost: Self.proofLength))
        uuidCiphertext = UuidCiphertext(e1: try reader.point(), e2: try reader.point())
        profileKeyCiphertext = ProfileKeyCiphertext(e1: try reader.point(), e2: try reader.point())
        expiration = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(
        cX0: RistrettoPoint, cX1: RistrettoPoint, cY: [RistrettoPoint], cV: RistrettoPoint, proof: [UInt8],
        uuidCiphertext: UuidCiphertext, profileKeyCiphertext: ProfileKeyCiphertext, expiration: UInt64
    ) {
        self.cX0 = cX0
        self.cX1 = cX1
        self.cY = cY
        self.cV = cV
        self.proof = proof
        self.uuidCiphertext = uuidCiphertext
        self.profileKeyCiphertext = profileKeyCiphertext
        self.expiration = expiration
        var bytes = [Self.version] + cX0.bytes + cX1.bytes + cY.flatMap(\.bytes) + cV.bytes
        bytes += ZKGroupReader.littleEndian(UInt64(proof.count)) + proof
        bytes += uuidCiphertext.e1.bytes + uuidCiphertext.e2.bytes + profileKeyCiphertext.e1.bytes + profileKeyCiphertext.e2.bytes
        super.init(checked: bytes + ZKGroupReader.littleEndian(expiration))
    }

    /// The presenter's ACI, encrypted under the group's key.
    public func getUuidCiphertext() throws -> UuidCiphertext { uuidCiphertext }

    /// The presenter's profile key, encrypted under the group's key.
    public func getProfileKeyCiphertext() throws -> ProfileKeyCiphertext { profileKeyCiphertext }

    /// The statement: Z = z·I, C_x1 = t·C_x0 + z0·G_x0 + z·G_x1, A + B = a1·G_a1 + a2·G_a2 + b1·G_b1 + b2·G_b2, the ACI
    /// and profile-key ciphertexts opening the commitments C_y1…C_y4, 0 = z1·I + a1·Z, 0 = z2·I + b1·Z, C_y5 = z·G_y5.
    static var statement: PokshoStatement {
        var statement = PokshoStatement()
        statement.add("Z", [("z", "I")])
        statement.add("C_x1", [("t", "C_x0"), ("z0", "G_x0"), ("z", "G_x1")])
        statement.add("A+B", [("a1", "G_a1"), ("a2", "G_a2"), ("b1", "G_b1"), ("b2", "G_b2")])
        statement.add("C_y2-E_A2", [("z", "G_y2"), ("a2", "-E_A1")])
        statement.add("E_A1", [("a1", "C_y1"), ("z1", "G_y1")])
        statement.add("C_y4-E_B2", [("z", "G_y4"), ("b2", "-E_B1")])
        statement.add("E_B1", [("b1", "C_y3"), ("z2", "G_y3")])
        statement.add("0", [("z1", "I"), ("a1", "Z")])
        statement.add("0", [("z2", "I"), ("b1", "Z")])
        statement.add("C_y5", [("z", "G_y5")])
        return statement
    }

    /// The statement's points.
    static func statementPoints(
        bigZ: RistrettoPoint, i: RistrettoPoint, cX0: RistrettoPoint, cX1: RistrettoPoint, cY: [RistrettoPoint],
        serviceIdKey: RistrettoPoint, profileKeyKey: RistrettoPoint, uuid: AttributeCiphertext, profileKey: AttributeCiphertext
    ) -> [String: RistrettoPoint] {
        let system = LegacyCredentialSystem.generators
        let (a1, a2) = ZKGroupGenerators.serviceId
        let (b1, b2) = ZKGroupGenerators.profileKey
        var points: [String: RistrettoPoint] = [
            "Z": bigZ, "I": i, "C_x1": cX1, "C_x0": cX0, "G_x0": system.x0, "G_x1": system.x1, "A+B": serviceIdKey + profileKeyKey,
            "G_a1": a1, "G_a2": a2, "G_b1": b1, "G_b2": b2, "C_y2-E_A2": cY[1] - uuid.e2, "-E_A1": RistrettoPoint.identity - uuid.e1,
            "E_A1": uuid.e1, "C_y4-E_B2": cY[3] - profileKey.e2, "-E_B1": RistrettoPoint.identity - profileKey.e1, "E_B1": profileKey.e1,
            "0": RistrettoPoint.identity,
        ]
        for index in 1...5 {
            points["C_y\(index)"] = cY[index - 1]
            points["G_y\(index)"] = system.y[index - 1]
        }
        return points
    }
}
