import Foundation

/// The client side of profile-key credentials: asking the server for one without showing it the profile key, opening
/// and checking the answer, and presenting the credential to a group's server.
public final class ClientZkProfileOperations: Sendable {
    private let serverPublicParams: ServerPublicParams

    /// Operations against the server whose public params these are.
    public init(serverPublicParams: ServerPublicParams) {
        self.serverPublicParams = serverPublicParams
    }

    /// A request for a credential over `profileKey`, owned by `userId`, with fresh randomness.
    public func createProfileKeyCredentialRequestContext(userId: Aci, profileKey: ProfileKey) throws -> ProfileKeyCredentialRequestContext {
        try createProfileKeyCredentialRequestContext(randomness: Randomness.generate(), userId: userId, profileKey: profileKey)
    }

    /// A request for a credential over `profileKey`, owned by `userId`, its blinding key and nonces from `randomness`.
    public func createProfileKeyCredentialRequestContext(
        randomness: Randomness, userId: Aci, profileKey: ProfileKey
    ) throws -> ProfileKeyCredentialRequestContext {
        var sho = ShoHmacSha256(
            label: "Signal_ZKGroup_20200424_Random_ServerPublicParams_CreateProfileKeyCredentialRequestContext", data: randomness.array)
        let uuid = [UInt8](userId.serviceIdBinary)
        let key = profileKey.contents
        let m3 = ProfileKeyPoints.m3(key, aciUUID: uuid)
        let m4 = ProfileKeyPoints.m4(key)
        let (commitment, j3) = ProfileKeyCommitment.committing(key: key, aciUUID: uuid, m3: m3, m4: m4)
        let y = sho.scalar()
        let bigY = RistrettoPoint.base(times: y)
        let r1 = sho.scalar()
        let r2 = sho.scalar()
        let ciphertext = ProfileKeyRequestCiphertext(
            d1: RistrettoPoint.base(times: r1), d2: r1 * bigY + m3, e1: RistrettoPoint.base(times: r2), e2: r2 * bigY + m4)
        let proof = try ProfileKeyRequestCiphertext.statement.prove(
            scalars: ["y": y, "r1": r1, "r2": r2, "j3": j3], points: ciphertext.statementPoints(y: bigY, commitment: commitment),
            message: [], randomness: sho.squeezeAndRatchet(32))
        return ProfileKeyCredentialRequestContext(
            aciUUID: uuid, profileKey: key, y: y, r1: r1, r2: r2, ciphertext: ciphertext, proof: proof)
    }

    /// The credential in `profileKeyCredentialResponse`, opened with the request's secrets after its proof is checked.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when the proof does not verify, the expiration is not a whole
    ///   day, or it is not one to seven days after `now`.
    public func receiveExpiringProfileKeyCredential(
        profileKeyCredentialRequestContext: ProfileKeyCredentialRequestContext,
        profileKeyCredentialResponse: ExpiringProfileKeyCredentialResponse, now: Date = Date()
    ) throws -> ExpiringProfileKeyCredential {
        let context = profileKeyCredentialRequestContext
        let response = profileKeyCredentialResponse
        let aci = ServiceIdAttribute(Aci(fromUUID: UUID(zkgroupBytes: context.aciUUID)))
        let (cW, i) = serverPublicParams.expiringProfileKeyPublicKey
        let points = ExpiringProfileKeyCredentialResponse.statementPoints(
            cW: cW, i: i, request: context.ciphertext, blindingKey: context.bigY, t: response.t, u: response.u, s1: response.s1,
            s2: response.s2, aci: aci, expiration: response.expiration)
        guard ExpiringProfileKeyCredentialResponse.statement.verify(proof: response.proof, points: points, message: []) else {
            throw SignalError.verificationFailed("the profile key credential was not issued by this server for this request")
        }
        let day = ZKGroupTime.secondsPerDay
        guard response.expiration % day == 0 else {
            throw SignalError.verificationFailed("a profile key credential expires at the start of a day")
        }
        let seconds = ZKGroupTime.seconds(now)
        let daysRemaining = response.expiration > seconds ? (response.expiration - seconds) / day : 0
        guard (1...7).contains(daysRemaining) else {
            throw SignalError.verificationFailed("a profile key credential expires one to seven days ahead (\(daysRemaining) days)")
        }
        let v = response.s2 - context.y * response.s1
        return ExpiringProfileKeyCredential(
            mac: ZKCredentialMAC(t: response.t, u: response.u, v: v), aciUUID: context.aciUUID, profileKey: context.profileKey,
            expiration: response.expiration)
    }

    /// A presentation of `profileKeyCredential` to the group whose secrets are `groupSecretParams`, with fresh randomness.
    public func createProfileKeyCredentialPresentation(
        groupSecretParams: GroupSecretParams, profileKeyCredential: ExpiringProfileKeyCredential
    ) throws -> ProfileKeyCredentialPresentation {
        try createProfileKeyCredentialPresentation(
            randomness: Randomness.generate(), groupSecretParams: groupSecretParams, profileKeyCredential: profileKeyCredential)
    }

    /// A presentation of `profileKeyCredential` to the group whose secrets are `groupSecretParams`, blinded by `randomness`.
    public func createProfileKeyCredentialPresentation(
        randomness: Randomness, groupSecretParams: GroupSecretParams, profileKeyCredential: ExpiringProfileKeyCredential
    ) throws -> ProfileKeyCredentialPresentation {
        let credential = profileKeyCredential
        var sho = ShoHmacSha256(
            label: "Signal_ZKGroup_20220508_Random_ServerPublicParams_CreateExpiringProfileKeyCredentialPresentation",
            data: randomness.array)
        let system = LegacyCredentialSystem.generators
        let aci = Aci(fromUUID: UUID(zkgroupBytes: credential.aciUUID))
        let attribute = ServiceIdAttribute(aci)
        let uidKeys = groupSecretParams.serviceIdKeys
        let profileKeys = groupSecretParams.profileKeyKeys
        let m3 = ProfileKeyPoints.m3(credential.profileKey, aciUUID: credential.aciUUID)
        let m4 = ProfileKeyPoints.m4(credential.profileKey)
        let (ea1, ea2) = uidKeys.encrypt(m1: attribute.m1, m2: attribute.m2)
        let (eb1, eb2) = profileKeys.encrypt(m1: m3, m2: m4)
        let uuidCiphertext = UuidCiphertext(e1: ea1, e2: ea2)
        let profileKeyCiphertext = ProfileKeyCiphertext(e1: eb1, e2: eb2)
        let z = sho.scalar()
        let hidden = [attribute.m1, attribute.m2, m3, m4]
        let cY = (0..<4).map { z * system.y[$0] + hidden[$0] } + [z * system.y[4]]
        let mac = credential.mac
        let cX0 = z * system.x0 + mac.u
        let cV = z * system.v + mac.v
        let cX1 = z * system.x1 + mac.t * mac.u
        let i = serverPublicParams.expiringProfileKeyPublicKey.i
        let scalars = [
            "z": z, "t": mac.t, "z0": -(z * mac.t), "a1": uidKeys.a1, "a2": uidKeys.a2, "b1": profileKeys.a1, "b2": profileKeys.a2,
            "z1": -(z * uidKeys.a1), "z2": -(z * profileKeys.a1),
        ]
        let points = ProfileKeyCredentialPresentation.statementPoints(
            bigZ: z * i, i: i, cX0: cX0, cX1: cX1, cY: cY, serviceIdKey: uidKeys.publicKey, profileKeyKey: profileKeys.publicKey,
            uuid: uuidCiphertext, profileKey: profileKeyCiphertext)
        let proof = try ProfileKeyCredentialPresentation.statement.prove(
            scalars: scalars, points: points, message: [], randomness: sho.squeezeAndRatchet(32))
        return ProfileKeyCredentialPresentation(
            cX0: cX0, cX1: cX1, cY: cY, cV: cV, proof: proof, uuidCiphertext: uuidCiphertext, profileKeyCiphertext: profileKeyCiphertext,
            expiration: credential.expiration)
    }
}
