import Foundation

/// A zkgroup server's secret keys: the credential key pairs it issues and verifies credentials with, the key it signs
/// group changes with (``NotarySignature``), and the group-send-endorsement root key. Made once per deployment.
///
/// Serialized as libsignal does (2721 bytes): a reserved `0x00`, the legacy auth, profile-key, receipt, PNI,
/// expiring-profile-key and auth-with-PNI credential key pairs (``LegacyCredentialKeyPair``, around the signing key
/// pair after the first two), the zkcredential key pair's private half and the endorsement key.
public final class ServerSecretParams: @unchecked Sendable {
    static let size = 2721

    let auth: LegacyCredentialKeyPair
    let profileKey: LegacyCredentialKeyPair
    let signingKey: RistrettoScalar
    let signingPublicKey: RistrettoPoint
    let receipt: LegacyCredentialKeyPair
    let pni: LegacyCredentialKeyPair
    let expiringProfileKey: LegacyCredentialKeyPair
    let authWithPni: LegacyCredentialKeyPair
    let generic: ZKCredentialKeyPair
    let endorsementKey: RistrettoScalar

    /// New server keys from fresh randomness.
    public static func generate() throws -> ServerSecretParams {
        try generate(randomness: Randomness.generate())
    }

    /// New server keys from `randomness`.
    public static func generate(randomness: Randomness) throws -> ServerSecretParams {
        ServerSecretParams(randomness: randomness.array)
    }

    private init(randomness: [UInt8]) {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Random_ServerSecretParams_Generate", data: randomness)
        auth = LegacyCredentialKeyPair(deriving: &sho, storage: 4, attributes: 3)
        profileKey = LegacyCredentialKeyPair(deriving: &sho, storage: 4, attributes: 4)
        signingKey = sho.scalar()
        signingPublicKey = RistrettoPoint.base(times: signingKey)
        receipt = LegacyCredentialKeyPair(deriving: &sho, storage: 4, attributes: 2)
        pni = LegacyCredentialKeyPair(deriving: &sho, storage: 6, attributes: 6)
        expiringProfileKey = LegacyCredentialKeyPair(deriving: &sho, storage: 5, attributes: 5)
        authWithPni = LegacyCredentialKeyPair(deriving: &sho, storage: 5, attributes: 5)
        generic = ZKCredentialKeyPair(randomness: randomness)
        var endorsement = ShoHmacSha256(label: "Signal_ZKCredential_Endorsements_ServerRootKeyPair_generate_20240207", data: randomness)
        endorsementKey = endorsement.scalar()
    }

    /// Server keys read back from their serialized form.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0, a non-canonical
    ///   scalar or an invalid point.
    public convenience init(contents: Data) throws {
        try self.init(bytes: [UInt8](contents))
    }

    private init(bytes: [UInt8]) throws {
        guard bytes.count == Self.size, bytes[0] == 0 else {
            throw SignalError.invalidType("ServerSecretParams is \(Self.size) bytes starting with 0 (got \(bytes.count))")
        }
        var offset = 1
        func take(_ count: Int) -> ArraySlice<UInt8> {
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }
        auth = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 4)), storage: 4)
        profileKey = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 4)), storage: 4)
        guard let signingKey = RistrettoScalar(canonical: take(32)), let signingPublicKey = RistrettoPoint(encoding: take(32)) else {
            throw SignalError.invalidType("ServerSecretParams holds a non-canonical scalar or an invalid point")
        }
        self.signingKey = signingKey
        self.signingPublicKey = signingPublicKey
        receipt = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 4)), storage: 4)
        pni = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 6)), storage: 6)
        expiringProfileKey = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 5)), storage: 5)
        authWithPni = try LegacyCredentialKeyPair(bytes: take(LegacyCredentialKeyPair.size(storage: 5)), storage: 5)
        generic = try ZKCredentialKeyPair(bytes: take(ZKCredentialKeyPair.size))
        guard let endorsementKey = RistrettoScalar(canonical: take(32)) else {
            throw SignalError.invalidType("ServerSecretParams holds a non-canonical scalar")
        }
        self.endorsementKey = endorsementKey
    }

    /// The serialized form.
    public func serialize() -> Data {
        var bytes: [UInt8] = [0]
        bytes += auth.serialized + profileKey.serialized + signingKey.bytes + signingPublicKey.bytes
        bytes += receipt.serialized + pni.serialized + expiringProfileKey.serialized + authWithPni.serialized
        bytes += generic.serialized + endorsementKey.bytes
        return Data(bytes)
    }

    /// What clients need of these keys.
    public func getPublicParams() throws -> ServerPublicParams {
        var bytes: [UInt8] = [0]
        bytes += auth.publicKey + profileKey.publicKey + signingPublicKey.bytes
        bytes += receipt.publicKey + pni.publicKey + expiringProfileKey.publicKey + authWithPni.publicKey
        bytes += generic.publicKey + RistrettoPoint.base(times: endorsementKey).bytes
        return try ServerPublicParams(contents: Data(bytes))
    }

    /// A signature of `message` with fresh randomness.
    public func sign(message: Data) throws -> NotarySignature {
        try sign(randomness: Randomness.generate(), message: message)
    }

    /// A signature of `message`, its nonce squeezed from `randomness` (and the key).
    public func sign(randomness: Randomness, message: Data) throws -> NotarySignature {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_Random_ServerSecretParams_Sign", data: randomness.array)
        let proof = try NotarySignature.statement.prove(
            scalars: ["private_key": signingKey], points: ["public_key": signingPublicKey], message: [UInt8](message),
            randomness: sho.squeezeAndRatchet(32))
        return NotarySignature(bytes: proof)
    }
}
