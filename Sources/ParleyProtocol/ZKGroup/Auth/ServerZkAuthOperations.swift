import Foundation

/// The server side of auth credentials: issuing each account its daily credentials, and verifying the presentations
/// group operations are authenticated with (without learning who presents them).
public final class ServerZkAuthOperations: Sendable {
    private let serverSecretParams: ServerSecretParams

    /// Operations with the server's keys.
    public init(serverSecretParams: ServerSecretParams) {
        self.serverSecretParams = serverSecretParams
    }

    /// A credential for `aci` and `pni`, redeemable on the day `redemptionTime` (seconds since 1970, a whole day), with
    /// fresh randomness.
    public func issueAuthCredentialWithPniZkc(aci: Aci, pni: Pni, redemptionTime: UInt64) throws -> AuthCredentialWithPniResponse {
        try issueAuthCredentialWithPniZkc(randomness: Randomness.generate(), aci: aci, pni: pni, redemptionTime: redemptionTime)
    }

    /// A credential for `aci` and `pni`, redeemable on the day `redemptionTime`, derived from `randomness`.
    public func issueAuthCredentialWithPniZkc(
        randomness: Randomness, aci: Aci, pni: Pni, redemptionTime: UInt64
    ) throws -> AuthCredentialWithPniResponse {
        try issue(randomness: randomness, aci: aci, pni: ServiceIdAttribute(pni), redemptionTime: redemptionTime)
    }

    /// A credential for `aci` alone (its PNI slot holds a stand-in derived from the ACI and `salt`, a per-account
    /// secret the server keeps), with fresh randomness.
    public func issueAuthCredentialZkcWithoutPni(aci: Aci, salt: Data, redemptionTime: UInt64) throws -> AuthCredentialWithPniResponse {
        try issueAuthCredentialZkcWithoutPni(randomness: Randomness.generate(), aci: aci, salt: salt, redemptionTime: redemptionTime)
    }

    /// A credential for `aci` alone, derived from `randomness`.
    public func issueAuthCredentialZkcWithoutPni(
        randomness: Randomness, aci: Aci, salt: Data, redemptionTime: UInt64
    ) throws -> AuthCredentialWithPniResponse {
        try issue(
            randomness: randomness, aci: aci, pni: ServiceIdAttribute.falsePni(aci: aci, salt: [UInt8](salt)),
            redemptionTime: redemptionTime)
    }

    private func issue(randomness: Randomness, aci: Aci, pni: ServiceIdAttribute, redemptionTime: UInt64) throws
        -> AuthCredentialWithPniResponse
    {
        let issuance = AuthCredential.issuance(aci: ServiceIdAttribute(aci), pni: pni, redemptionTime: redemptionTime)
        let (mac, proof) = try issuance.issue(keyPair: serverSecretParams.generic, randomness: randomness.array)
        return AuthCredentialWithPniResponse(mac: mac, proof: proof)
    }

    /// Checks that `authCredentialPresentation` proves a credential this server issued, for a day that may be used at
    /// `now`, whose holder's ACI and PNI are the presentation's ciphertexts under the group's key.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when the day is outside the window (a day before to two days
    ///   after) or the proof does not verify.
    public func verifyAuthCredentialPresentation(
        groupPublicParams: GroupPublicParams, authCredentialPresentation: AuthCredentialPresentation, now: Date = Date()
    ) throws {
        let presentation = authCredentialPresentation
        guard AuthCredential.isRedeemable(redemptionTime: presentation.redemptionTime, now: ZKGroupTime.seconds(now)) else {
            throw SignalError.verificationFailed("the auth credential is for another day")
        }
        let attributes = [presentation.aciCiphertext, presentation.pniCiphertext].map {
            ZKCredentialPresentation.VerifierAttribute(
                e1: $0.e1, e2: $0.e2, domain: .serviceId, publicKey: groupPublicParams.serviceIdKey)
        }
        guard
            presentation.presentation.verify(
                keyPair: serverSecretParams.generic, label: AuthCredential.label,
                publicAttributes: [ShoHmacSha256.bigEndian(presentation.redemptionTime)], attributes: attributes)
        else { throw SignalError.verificationFailed("the auth credential presentation does not verify") }
    }
}
