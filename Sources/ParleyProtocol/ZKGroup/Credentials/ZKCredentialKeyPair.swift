import Foundation

/// A server's zkcredential key pair (libsignal's `CredentialKeyPair` in its legacy mode, which ServerSecretParams keeps):
/// scalars w, w', x0, x1, y0…y6 from a SHO over the randomness; W = w·G_w. Public: C_W = W + w'·G_w' and I for two to
/// seven attributes. Only the private half is serialized (w ‖ w' ‖ W ‖ x0 ‖ x1 ‖ y0…y6, 384 bytes); the public half is
/// computed again when read.
struct ZKCredentialKeyPair: Sendable {
    let w, wPrime, x0, x1: RistrettoScalar
    let bigW: RistrettoPoint
    let y: [RistrettoScalar]
    let cW: RistrettoPoint
    /// I for 2…7 attributes (index 0: two).
    let i: [RistrettoPoint]

    static let size = 384

    init(randomness: [UInt8]) {
        var sho = ShoHmacSha256(label: "Signal_ZKCredential_CredentialPrivateKey_generate_20230410", data: randomness)
        let w = sho.scalar()
        let wPrime = sho.scalar()
        let x0 = sho.scalar()
        let x1 = sho.scalar()
        let y = (0..<7).map { _ in sho.scalar() }
        self.init(w: w, wPrime: wPrime, bigW: w * ZKCredentialSystem.generators.w, x0: x0, x1: x1, y: y)
    }

    /// The key pair whose private half `bytes` serializes.
    /// - Throws: ``SignalError/invalidType(_:)`` for a non-canonical scalar or an invalid point.
    init(bytes: ArraySlice<UInt8>) throws {
        let fields = (0..<12).map { Array(bytes[(bytes.startIndex + 32 * $0)..<(bytes.startIndex + 32 * $0 + 32)]) }
        let scalars = fields.enumerated().filter { $0.offset != 2 }.compactMap { RistrettoScalar(canonical: $0.element) }
        guard scalars.count == 11, let bigW = RistrettoPoint(encoding: fields[2]) else {
            throw SignalError.invalidType("ServerSecretParams holds a non-canonical scalar or an invalid point")
        }
        self.init(w: scalars[0], wPrime: scalars[1], bigW: bigW, x0: scalars[2], x1: scalars[3], y: Array(scalars[4...]))
    }

    private init(
        w: RistrettoScalar, wPrime: RistrettoScalar, bigW: RistrettoPoint, x0: RistrettoScalar, x1: RistrettoScalar, y: [RistrettoScalar]
    ) {
        let system = ZKCredentialSystem.generators
        self.w = w
        self.wPrime = wPrime
        self.bigW = bigW
        self.x0 = x0
        self.x1 = x1
        self.y = y
        cW = bigW + wPrime * system.wPrime
        var partial = system.v - x0 * system.x0 - x1 * system.x1
        var i: [RistrettoPoint] = []
        for j in 1...6 {
            partial = partial - y[j] * system.y[j]
            i.append(partial - y[0] * system.y[0])
        }
        self.i = i
    }

    var serialized: [UInt8] { [w.bytes, wPrime.bytes, bigW.bytes, x0.bytes, x1.bytes].flatMap { $0 } + y.flatMap(\.bytes) }

    /// The public half.
    var credentialPublicKey: ZKCredentialPublicKey { ZKCredentialPublicKey(cW: cW, i: i) }

    var publicKey: [UInt8] { credentialPublicKey.serialized }
}
