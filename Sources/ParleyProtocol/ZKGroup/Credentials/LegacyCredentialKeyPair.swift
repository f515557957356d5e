import Foundation

/// A server's key pair of the legacy credential system (``LegacyCredentialSystem``): scalars w, w', x0, x1 and
/// `storage` scalars y1…yN, of which the first `attributes` are in the public I. Serialized as
/// w ‖ w' ‖ W ‖ x0 ‖ x1 ‖ y1…yN ‖ C_W ‖ I (224 + 32·N bytes); public C_W ‖ I (64 bytes).
struct LegacyCredentialKeyPair: Sendable {
    let w, wPrime, x0, x1: RistrettoScalar
    let bigW: RistrettoPoint
    let y: [RistrettoScalar]
    let cW: RistrettoPoint
    let i: RistrettoPoint

    /// The key pair the next 4 + `storage` scalars of `sho` make, `attributes` of them counted in I.
    init(deriving sho: inout ShoHmacSha256, storage: Int, attributes: Int) {
        let system = LegacyCredentialSystem.generators
        w = sho.scalar()
        bigW = w * system.w
        wPrime = sho.scalar()
        x0 = sho.scalar()
        x1 = sho.scalar()
        y = (0..<storage).map { _ in sho.scalar() }
        cW = bigW + wPrime * system.wPrime
        var i = system.v - x0 * system.x0 - x1 * system.x1
        for index in 0..<attributes { i = i - y[index] * system.y[index] }
        self.i = i
    }

    /// The key pair `bytes` serializes (224 + 32·`storage` bytes).
    /// - Throws: ``SignalError/invalidType(_:)`` for a non-canonical scalar or an invalid point.
    init(bytes: ArraySlice<UInt8>, storage: Int) throws {
        let fields = (0..<(7 + storage)).map { Array(bytes[(bytes.startIndex + 32 * $0)..<(bytes.startIndex + 32 * $0 + 32)]) }
        func scalar(_ index: Int) throws -> RistrettoScalar {
            guard let value = RistrettoScalar(canonical: fields[index]) else {
                throw SignalError.invalidType("ServerSecretParams holds a non-canonical scalar")
            }
            return value
        }
        func point(_ index: Int) throws -> RistrettoPoint {
            guard let value = RistrettoPoint(encoding: fields[index]) else {
                throw SignalError.invalidType("ServerSecretParams holds an invalid point")
            }
            return value
        }
        w = try scalar(0)
        wPrime = try scalar(1)
        bigW = try point(2)
        x0 = try scalar(3)
        x1 = try scalar(4)
        y = try (0..<storage).map { try scalar(5 + $0) }
        cW = try point(5 + storage)
        i = try point(6 + storage)
    }

    /// Its serialized length for `storage` y scalars.
    static func size(storage: Int) -> Int { 224 + 32 * storage }

    var serialized: [UInt8] {
        [w.bytes, wPrime.bytes, bigW.bytes, x0.bytes, x1.bytes].flatMap { $0 } + y.flatMap(\.bytes) + cW.bytes + i.bytes
    }

    var publicKey: [UInt8] { cW.bytes + i.bytes }
}
