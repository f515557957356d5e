import Foundation

/// A profile key's points (M3, M4) encrypted under a request's blinding key Y: D1 = r1·G, D2 = r1·Y + M3, E1 = r2·G,
/// E2 = r2·Y + M4. 128 bytes: D1, D2, E1, E2.
struct ProfileKeyRequestCiphertext: Sendable {
    let d1, d2, e1, e2: RistrettoPoint

    var serialized: [UInt8] { d1.bytes + d2.bytes + e1.bytes + e2.bytes }

    static func read(_ reader: inout ZKGroupReader) throws -> ProfileKeyRequestCiphertext {
        ProfileKeyRequestCiphertext(d1: try reader.point(), d2: try reader.point(), e1: try reader.point(), e2: try reader.point())
    }

    /// The statement a request proves: Y = y·G, D1 = r1·G, E1 = r2·G, J3 = j3·G_j3, D2 − J1 = r1·Y − j3·G_j1 and
    /// E2 − J2 = r2·Y − j3·G_j2 — the ciphertext encrypts the committed key.
    static var statement: PokshoStatement {
        var statement = PokshoStatement()
        statement.add("Y", [("y", "G")])
        statement.add("D1", [("r1", "G")])
        statement.add("E1", [("r2", "G")])
        statement.add("J3", [("j3", "G_j3")])
        statement.add("D2-J1", [("r1", "Y"), ("j3", "-G_j1")])
        statement.add("E2-J2", [("r2", "Y"), ("j3", "-G_j2")])
        return statement
    }

    /// The request statement's points for this ciphertext, blinding key `y` and `commitment`.
    func statementPoints(y: RistrettoPoint, commitment: ProfileKeyCommitment) -> [String: RistrettoPoint] {
        let generators = ZKGroupGenerators.profileKeyCommitment
        return [
            "Y": y, "D1": d1, "E1": e1, "J3": commitment.j3, "G_j3": generators[2], "D2-J1": d2 - commitment.j1,
            "-G_j1": RistrettoPoint.identity - generators[0], "E2-J2": e2 - commitment.j2, "-G_j2": RistrettoPoint.identity - generators[1],
        ]
    }
}
