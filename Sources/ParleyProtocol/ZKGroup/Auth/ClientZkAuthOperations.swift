import Foundation

/// The client side of auth credentials: checking the credentials its server issues, and presenting one to a group's
/// server so that it may act in the group without saying who it is.
public final class ClientZkAuthOperations: Sendable {
    private let serverPublicParams: ServerPublicParams

    /// Operations against the server whose public params these are.
    public init(serverPublicParams: ServerPublicParams) {
        self.serverPublicParams = serverPublicParams
    }

    /// The credential in `authCredentialResponse`, checked to be the server's, for `aci` and `pni`, for the day
    /// `redemptionTime`.
    /// - Throws: ``SignalError/verificationFailed(_:)`` when `redemptionTime` is not a whole day or the issuance proof
    ///   does not verify.
    public func receiveAuthCredentialWithPniAsServiceId(
        aci: Aci, pni: Pni, redemptionTime: UInt64, authCredentialResponse: AuthCredentialWithPniResponse
    ) throws -> AuthCredentialWithPni {
        try receive(aci: aci, pni: ServiceIdAttribute(pni), redemptionTime: redemptionTime, response: authCredentialResponse)
    }

    /// The credential in `authCredentialResponse`, issued without a PNI (`salt` is the one the server used).
    /// - Throws: ``SignalError/verificationFailed(_:)`` when `redemptionTime` is not a whole day or the issuance proof
    ///   does not verify.
    public func receiveAuthCredentialWithoutPni(
        aci: Aci, salt: Data, redemptionTime: UInt64, authCredentialResponse: AuthCredentialWithPniResponse
    ) throws -> AuthCredentialWithPni {
        try receive(
            aci: aci, pni: ServiceIdAttribute.falsePni(aci: aci, salt: [UInt8](salt)), redemptionTime: redemptionTime,
            response: authCredentialResponse)
    }

    private func receive(
        aci: Aci, pni: ServiceIdAttribute, redemptionTime: UInt64, response: AuthCredentialWithPniResponse
    ) throws -> AuthCredentialWithPni {
        guard redemptionTime % ZKGroupTime.secondsPerDay == 0 else {
            throw SignalError.verificationFailed("an auth credential's redemption time is a whole day")
        }
        let aciAttribute = ServiceIdAttribute(aci)
        let issuance = AuthCredential.issuance(aci: aciAttribute, pni: pni, redemptionTime: redemptionTime)
        guard issuance.verify(publicKey: serverPublicParams.genericCredentialPublicKey, mac: response.mac, proof: response.proof) else {
            throw SignalError.verificationFailed("the auth credential was not issued by this server for this account and day")
        }
        return AuthCredentialWithPni(mac: response.mac, aci: aciAttribute, pni: pni, redemptionTime: redemptionTime)
    }

    /// A presentation of `authCredential` to the group whose secrets are `groupSecretParams`, with fresh randomness.
    public func createAuthCredentialPresentation(
        groupSecretParams: GroupSecretParams, authCredential: AuthCredentialWithPni
    ) throws -> AuthCredentialPresentation {
        try createAuthCredentialPresentation(
            randomness: Randomness.generate(), groupSecretParams: groupSecretParams, authCredential: authCredential)
    }

    /// A presentation of `authCredential` to the group whose secrets are `groupSecretParams`, blinded by `randomness`.
    public func createAuthCredentialPresentation(
        randomness: Randomness, groupSecretParams: GroupSecretParams, authCredential: AuthCredentialWithPni
    ) throws -> AuthCredentialPresentation {
        let keyPair = groupSecretParams.serviceIdKeys
        let attributes = [authCredential.aci, authCredential.pni].map {
            ZKCredentialPresentation.ProverAttribute(points: $0.points, domain: .serviceId, keyPair: keyPair)
        }
        let (presentation, ciphertexts) = try ZKCredentialPresentation.present(
            publicKey: serverPublicParams.genericCredentialPublicKey, mac: authCredential.mac, attributes: attributes,
            randomness: randomness.array)
        return AuthCredentialPresentation(
            presentation: presentation, aciCiphertext: UuidCiphertext(e1: ciphertexts[0].e1, e2: ciphertexts[0].e2),
            pniCiphertext: UuidCiphertext(e1: ciphertexts[1].e1, e2: ciphertexts[1].e2), redemptionTime: authCredential.redemptionTime)
    }
}
