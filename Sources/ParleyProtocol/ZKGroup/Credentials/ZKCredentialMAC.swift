import Foundation

/// A zkcredential (legacy mode) as issued: the algebraic MAC (t, U, V) over the attribute points,
/// V = W + (x0 + x1·t)·U + Σ yᵢ·Mᵢ. 96 bytes serialized: t, U, V.
struct ZKCredentialMAC: Sendable {
    let t: RistrettoScalar
    let u: RistrettoPoint
    let v: RistrettoPoint

    var serialized: [UInt8] { t.bytes + u.bytes + v.bytes }

    /// The MAC `reader` holds next.
    static func read(_ reader: inout ZKGroupReader) throws -> ZKCredentialMAC {
        ZKCredentialMAC(t: try reader.scalar(), u: try reader.point(), v: try reader.point())
    }
}
