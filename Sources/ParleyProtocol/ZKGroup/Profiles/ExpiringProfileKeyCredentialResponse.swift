import Foundation

/// A server's answer to a ``ProfileKeyCredentialRequest``: the credential still blinded (t, U, S1, S2 — only the
/// requester's y opens V = S2 − y·S1), its expiration and the proof that it MACs the requester's ACI, the encrypted
/// profile key and the expiration under the server's key. 497 bytes.
public final class ExpiringProfileKeyCredentialResponse: ByteArray, @unchecked Sendable {
    /// The issuance proof's length: the challenge and ten responses (w, w', x0, x1, y1…y5, r').
    static let proofLength = 352

    let t: RistrettoScalar
    let u, s1, s2: RistrettoPoint
    let expiration: UInt64
    let proof: [UInt8]

    /// The response `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical scalar
    ///   or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "ExpiringProfileKeyCredentialResponse")
        try reader.expectByte(0)
        t = try reader.scalar()
        u = try reader.point()
        s1 = try reader.point()
        s2 = try reader.point()
        expiration = try reader.u64()
        proof = try reader.bytes(reader.count(atMost: Self.proofLength))
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(t: RistrettoScalar, u: RistrettoPoint, s1: RistrettoPoint, s2: RistrettoPoint, expiration: UInt64, proof: [UInt8]) {
        self.t = t
        self.u = u
        self.s1 = s1
        self.s2 = s2
        self.expiration = expiration
        self.proof = proof
        let bytes: [UInt8] = [0] + t.bytes + u.bytes + s1.bytes + s2.bytes + ZKGroupReader.littleEndian(expiration)
        super.init(checked: bytes + ZKGroupReader.littleEndian(UInt64(proof.count)) + proof)
    }

    /// The issuance statement: C_W = w·G_w + w'·G_w', G_V − I = x0·G_x0 + x1·G_x1 + y1…y5·G_y1…G_y5,
    /// S1 = y3·D1 + y4·E1 + r'·G, S2 = y3·D2 + y4·E2 + r'·Y + w·G_w + x0·U + x1·tU + y1·M1 + y2·M2 + y5·M5.
    static var statement: PokshoStatement {
        var statement = PokshoStatement()
        statement.add("C_W", [("w", "G_w"), ("wprime", "G_wprime")])
        statement.add("G_V-I", [("x0", "G_x0"), ("x1", "G_x1")] + (1...5).map { ("y\($0)", "G_y\($0)") })
        statement.add("S1", [("y3", "D1"), ("y4", "E1"), ("rprime", "G")])
        statement.add(
            "S2",
            [
                ("y3", "D2"), ("y4", "E2"), ("rprime", "Y"), ("w", "G_w"), ("x0", "U"), ("x1", "tU"), ("y1", "M1"), ("y2", "M2"),
                ("y5", "M5"),
            ])
        return statement
    }

    /// The issuance statement's points.
    static func statementPoints(
        cW: RistrettoPoint, i: RistrettoPoint, request: ProfileKeyRequestCiphertext, blindingKey: RistrettoPoint,
        t: RistrettoScalar, u: RistrettoPoint, s1: RistrettoPoint, s2: RistrettoPoint, aci: ServiceIdAttribute, expiration: UInt64
    ) -> [String: RistrettoPoint] {
        let system = LegacyCredentialSystem.generators
        var points: [String: RistrettoPoint] = [
            "C_W": cW, "G_w": system.w, "G_wprime": system.wPrime, "G_V-I": system.v - i, "G_x0": system.x0, "G_x1": system.x1,
            "S1": s1, "D1": request.d1, "E1": request.e1, "S2": s2, "D2": request.d2, "E2": request.e2, "Y": blindingKey, "U": u,
            "tU": t * u, "M1": aci.m1, "M2": aci.m2, "M5": LegacyCredentialSystem.expirationPoint(expiration),
        ]
        for index in 1...5 { points["G_y\(index)"] = system.y[index - 1] }
        return points
    }
}
