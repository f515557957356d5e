import Foundation

/// The server side of profile-key credentials: issuing them against a stored ``ProfileKeyCommitment``, and verifying the
/// presentations a group's server receives when a member adds their profile key.
public final class ServerZkProfileOperations: Sendable {
    private let serverSecretParams: ServerSecretParams

    /// Operations with the server's keys.
    public init(serverSecretParams: ServerSecretParams) {
        self.serverSecretParams = serverSecretParams
    }

    /// A credential for `userId`'s profile key, expiring at `expiration` (seconds, a whole day), with fresh randomness.
    public func issueExpiringProfileKeyCredential(
        profileKeyCredentialRequest: ProfileKeyCredentialRequest, userId: Aci, profileKeyCommitment: ProfileKeyCommitment,
        expiration: UInt64
    ) throws -> ExpiringProfileKeyCredentialResponse {
        try issueExpiringProfileKeyCredential(
            randomness: Randomness.generate(), profileKeyCredentialRequest: profileKeyCredentialRequest, userId: userId,
            profileKeyCommitment: profileKeyCommitment, expiration: expiration)
    }

    /// A credential for `userId`'s profile key, expiring at `expiration`, derived from `randomness`. The request's proof
    /// is checked first: it must encrypt the key `profileKeyCommitment` commits to.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when the request does not match the commitment.
    public func issueExpiringProfileKeyCredential(
        randomness: Randomness, profileKeyCredentialRequest: ProfileKeyCredentialRequest, userId: Aci,
        profileKeyCommitment: ProfileKeyCommitment, expiration: UInt64
    ) throws -> ExpiringProfileKeyCredentialResponse {
        let request = profileKeyCredentialRequest
        guard
            ProfileKeyRequestCiphertext.statement.verify(
                proof: request.proof, points: request.ciphertext.statementPoints(y: request.publicKey, commitment: profileKeyCommitment),
                message: [])
        else { throw SignalError.verificationFailed("the profile key credential request does not match the commitment") }
        let key = serverSecretParams.expiringProfileKey
        var sho = ShoHmacSha256(
            label: "Signal_ZKGroup_20220508_Random_ServerSecretParams_IssueExpiringProfileKeyCredential", data: randomness.array)
        let aci = ServiceIdAttribute(userId)
        let t = sho.scalar()
        let u = sho.point()
        let m5 = LegacyCredentialSystem.expirationPoint(expiration)
        let v = key.bigW + (key.x0 + key.x1 * t) * u + key.y[0] * aci.m1 + key.y[1] * aci.m2 + key.y[4] * m5
        let rPrime = sho.scalar()
        let s1 = RistrettoPoint.base(times: rPrime) + key.y[2] * request.ciphertext.d1 + key.y[3] * request.ciphertext.e1
        let s2 = rPrime * request.publicKey + v + key.y[2] * request.ciphertext.d2 + key.y[3] * request.ciphertext.e2
        var scalars = ["w": key.w, "wprime": key.wPrime, "x0": key.x0, "x1": key.x1, "rprime": rPrime]
        for index in 1...5 { scalars["y\(index)"] = key.y[index - 1] }
        let points = ExpiringProfileKeyCredentialResponse.statementPoints(
            cW: key.cW, i: key.i, request: request.ciphertext, blindingKey: request.publicKey, t: t, u: u, s1: s1, s2: s2, aci: aci,
            expiration: expiration)
        let proof = try ExpiringProfileKeyCredentialResponse.statement.prove(
            scalars: scalars, points: points, message: [], randomness: sho.squeezeAndRatchet(32))
        return ExpiringProfileKeyCredentialResponse(t: t, u: u, s1: s1, s2: s2, expiration: expiration, proof: proof)
    }

    /// Checks that `profileKeyCredentialPresentation` proves an unexpired credential from this server for the ACI and
    /// profile key its ciphertexts encrypt under the group's keys.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when the proof does not verify or the credential expired at or
    ///   before `now`.
    public func verifyProfileKeyCredentialPresentation(
        groupPublicParams: GroupPublicParams, profileKeyCredentialPresentation: ProfileKeyCredentialPresentation, now: Date = Date()
    ) throws {
        let presentation = profileKeyCredentialPresentation
        let key = serverSecretParams.expiringProfileKey
        let m5 = LegacyCredentialSystem.expirationPoint(presentation.expiration)
        var bigZ = presentation.cV - key.bigW - key.x0 * presentation.cX0 - key.x1 * presentation.cX1
        for index in 0..<4 { bigZ = bigZ - key.y[index] * presentation.cY[index] }
        bigZ = bigZ - key.y[4] * (presentation.cY[4] + m5)
        let points = ProfileKeyCredentialPresentation.statementPoints(
            bigZ: bigZ, i: key.i, cX0: presentation.cX0, cX1: presentation.cX1, cY: presentation.cY,
            serviceIdKey: groupPublicParams.serviceIdKey, profileKeyKey: groupPublicParams.profileKeyKey, uuid: presentation.uuidCiphertext,
            profileKey: presentation.profileKeyCiphertext)
        guard ProfileKeyCredentialPresentation.statement.verify(proof: presentation.proof, points: points, message: []) else {
            throw SignalError.verificationFailed("the profile key credential presentation does not verify")
        }
        guard presentation.expiration > ZKGroupTime.seconds(now) else {
            throw SignalError.verificationFailed("the profile key credential has expired")
        }
    }
}
