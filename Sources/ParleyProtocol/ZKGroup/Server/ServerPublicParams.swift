import Foundation

/// The public half of a zkgroup server's keys (``ServerSecretParams/getPublicParams()``): what clients verify
/// credentials and signatures with. Serialized as libsignal does (673 bytes): a reserved `0x00`, each legacy credential
/// public key (C_W ‖ I) with the signing key after the first two, the zkcredential public key (C_W and I for two to
/// seven attributes) and the endorsement public key.
public final class ServerPublicParams: @unchecked Sendable {
    static let size = 673

    private let bytes: [UInt8]
    let signingPublicKey: RistrettoPoint
    /// The root group-send-endorsement public key.
    let endorsementKey: RistrettoPoint
    /// The expiring-profile-key credential public key (C_W, I).
    let expiringProfileKeyPublicKey: (cW: RistrettoPoint, i: RistrettoPoint)
    /// The zkcredential public key (auth credentials are checked against it).
    let genericCredentialPublicKey: ZKCredentialPublicKey

    /// Public params read back from their serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public init(contents: Data) throws {
        let bytes = [UInt8](contents)
        guard bytes.count == Self.size, bytes[0] == 0 else {
            throw SignalError.invalidType("ServerPublicParams is \(Self.size) bytes starting with 0 (got \(bytes.count))")
        }
        // 21 points, each decoded once: the legacy keys (C_W, I) with the signing key fifth, the zkcredential key (C_W
        // and six I) from the fourteenth, the endorsement key last.
        let points = stride(from: 1, to: Self.size, by: 32).compactMap { RistrettoPoint(encoding: bytes[$0..<($0 + 32)]) }
        guard points.count == 21 else { throw SignalError.invalidType("ServerPublicParams holds an invalid point") }
        self.bytes = bytes
        signingPublicKey = points[4]
        expiringProfileKeyPublicKey = (points[9], points[10])
        genericCredentialPublicKey = ZKCredentialPublicKey(cW: points[13], i: Array(points[14..<20]))
        endorsementKey = points[20]
    }

    /// The serialized form.
    public func serialize() -> Data { Data(bytes) }

    /// The group-send-endorsement public key, serialized as libsignal serializes it (a `0x00` version, then the point).
    public var endorsementPublicKey: Data { Data([0] + bytes[641..<673]) }

    /// Checks that `notarySignature` is this server's signature of `message`.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it is not.
    public func verifySignature(message: Data, notarySignature: NotarySignature) throws {
        guard
            NotarySignature.statement.verify(
                proof: notarySignature.contents, points: ["public_key": signingPublicKey], message: [UInt8](message))
        else { throw SignalError.verificationFailed("the notary signature does not verify") }
    }
}
