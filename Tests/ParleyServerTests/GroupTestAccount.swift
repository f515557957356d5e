import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol

/// An account as a group client sees itself: its ACI, profile key, today's group auth credential and an expiring
/// profile key credential, all obtained from the server's routes and checked with LibSignalClient's client operations.
struct GroupTestAccount: Sendable {
    let member: Member
    let aci: Aci
    let profileKey: ProfileKey
    let authCredential: AuthCredentialWithPni
    let profileKeyCredential: ExpiringProfileKeyCredential
    let serverParams: ServerPublicParams

    /// Registers `username`, publishes its profile key commitment and fetches both credentials.
    static func register(_ username: String, on client: any TestClientProtocol) async throws -> GroupTestAccount {
        let member = try await client.register(username)
        let (_, paramsBody) = try await client.call(.get, APIRoutes.zkGroupPublicParams)
        let encoded = try JSONDecoder().decode(ZKGroupPublicParamsResponse.self, from: paramsBody).serverPublicParams
        let serverParams = try ServerPublicParams(contents: Data(base64Encoded: encoded)!)
        let aci = Aci(fromUUID: UUID(uuidString: member.accountId)!)

        let day: UInt64 = 86_400
        let now = UInt64(Date().timeIntervalSince1970)
        let today = now - now % day
        let (status, body) = try await client.call(
            .get, "\(APIRoutes.groupAuthCredentials)?redemptionStartSeconds=\(today)&redemptionEndSeconds=\(today)",
            headers: member.headers)
        guard status == .ok else { throw HarnessError.unexpected(status, body) }
        let credentials = try JSONDecoder().decode(GroupAuthCredentialsResponse.self, from: body)
        let authCredential = try ClientZkAuthOperations(serverPublicParams: serverParams).receiveAuthCredentialWithoutPni(
            aci: aci, salt: Data(base64Encoded: credentials.authCredentialSalt)!, redemptionTime: today,
            authCredentialResponse: AuthCredentialWithPniResponse(contents: Data(base64Encoded: credentials.credentials[0].credential)!))

        let profileKey = try ProfileKey(contents: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
        let version = String(decoding: try profileKey.getProfileKeyVersion(userId: aci).serialize(), as: UTF8.self)
        let commitment = ProfileKeyCommitmentRequest(
            version: version, commitment: try profileKey.getCommitment(userId: aci).serialize().base64EncodedString())
        let (published, publishBody) = try await client.call(
            .put, APIRoutes.profileKeyCommitment, headers: member.headers, json: commitment)
        guard published == .noContent else { throw HarnessError.unexpected(published, publishBody) }
        let operations = ClientZkProfileOperations(serverPublicParams: serverParams)
        let context = try operations.createProfileKeyCredentialRequestContext(userId: aci, profileKey: profileKey)
        let (issued, issuedBody) = try await client.call(
            .get, Self.credentialPath(aci: aci, version: version, request: try context.getRequest().serialize()), headers: member.headers)
        guard issued == .ok else { throw HarnessError.unexpected(issued, issuedBody) }
        let response = try JSONDecoder().decode(ProfileKeyCredentialResponse.self, from: issuedBody)
        let profileKeyCredential = try operations.receiveExpiringProfileKeyCredential(
            profileKeyCredentialRequestContext: context,
            profileKeyCredentialResponse: ExpiringProfileKeyCredentialResponse(contents: Data(base64Encoded: response.credential)!))
        return GroupTestAccount(
            member: member, aci: aci, profileKey: profileKey, authCredential: authCredential, profileKeyCredential: profileKeyCredential,
            serverParams: serverParams)
    }

    static func credentialPath(aci: Aci, version: String, request: Data) -> String {
        APIRoutes.profileKeyCredential.replacingOccurrences(of: "{aci}", with: aci.serviceIdString)
            .replacingOccurrences(of: "{version}", with: version)
            .replacingOccurrences(of: "{credentialRequest}", with: request.map { String(format: "%02x", $0) }.joined())
            + "?credentialType=expiringProfileKey"
    }

    /// The headers of a request to `group` authenticated by a fresh presentation of today's credential.
    func headers(_ group: GroupSecretParams) throws -> HTTPFields {
        let presentation = try ClientZkAuthOperations(serverPublicParams: serverParams).createAuthCredentialPresentation(
            groupSecretParams: group, authCredential: authCredential)
        return [
            .authorization: APIRoutes.groupAuthorization(
                publicParams: try group.getPublicParams().serialize(), presentation: presentation.serialize()),
            .contentType: APIRoutes.groupContentType,
        ]
    }

    /// This account's member id in `group`.
    func userId(_ group: GroupSecretParams) throws -> Data {
        try ClientZkGroupCipher(groupSecretParams: group).encrypt(aci).serialize()
    }

    /// A member entry standing for this account in `group`: a fresh profile key credential presentation.
    func member(_ group: GroupSecretParams, role: Signal_Member.Role) throws -> Signal_Member {
        var member = Signal_Member()
        member.role = role
        member.presentation = try ClientZkProfileOperations(serverPublicParams: serverParams).createProfileKeyCredentialPresentation(
            groupSecretParams: group, profileKeyCredential: profileKeyCredential
        ).serialize()
        return member
    }
}

extension TestClientProtocol {
    /// Sends a protobuf body (or none) and returns status, headers and body.
    func group(
        _ method: HTTPRequest.Method, _ uri: String = APIRoutes.groups, headers: HTTPFields, body: [UInt8]? = nil
    ) async throws -> (HTTPResponse.Status, HTTPFields, Data) {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }) { response in
            (response.status, response.headers, Data(response.body.readableBytesView))
        }
    }
}
