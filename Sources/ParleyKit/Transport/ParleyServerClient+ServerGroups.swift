import Foundation
import NIOHTTP1
import ParleyAPI
import SwiftProtobuf

/// Server-stored groups' routes: profile key commitments and credentials (as the account), and the group calls, each
/// authenticated by a group auth credential presentation and sent over the unidentified pool, so that no connection
/// that just carried this device's credentials carries them.
extension ParleyServerClient {
    /// Publishes the commitment to one version of `device`'s account's profile key.
    public func publishProfileKeyCommitment(_ request: ProfileKeyCommitmentRequest, as device: DeviceCredentials) async throws {
        _ = try await send(.PUT, APIRoutes.profileKeyCommitment, body: try JSONEncoder().encode(request), as: device, expecting: [204])
    }

    /// An expiring profile key credential for `aci`'s profile key `version`, issued for `request` (a serialized
    /// `ProfileKeyCredentialRequest`).
    public func profileKeyCredential(aci: String, version: String, request: Data, as device: DeviceCredentials) async throws
        -> ProfileKeyCredentialResponse
    {
        let path = APIRoutes.profileKeyCredential.replacingOccurrences(of: "{aci}", with: Self.pathComponent(aci))
            .replacingOccurrences(of: "{version}", with: Self.pathComponent(version))
            .replacingOccurrences(of: "{credentialRequest}", with: ContentHashFormat.hex(Array(request)))
        return try await call(.GET, path + "?credentialType=expiringProfileKey", as: device, expecting: [200])
    }

    /// Creates `group` on the server.
    public func createGroup(_ group: Signal_Group, authorization: String) async throws -> Signal_GroupResponse {
        try await groupCall(.PUT, APIRoutes.groups, body: try group.serializedData(), authorization: authorization)
    }

    /// The group the presentation in `authorization` names.
    public func fetchGroup(authorization: String) async throws -> Signal_GroupResponse {
        try await groupCall(.GET, APIRoutes.groups, body: nil, authorization: authorization)
    }

    /// Applies `actions`; `inviteLinkPassword` when joining or asking to join by link. A change made from an old
    /// revision is refused with 409 (``ParleyError/Server/status``).
    public func modifyGroup(_ actions: Signal_GroupChange.Actions, inviteLinkPassword: Data? = nil, authorization: String) async throws
        -> Signal_GroupChangeResponse
    {
        let query = inviteLinkPassword.map { "?inviteLinkPassword=" + Base64URL.encode($0) } ?? ""
        return try await groupCall(.PATCH, APIRoutes.groups + query, body: try actions.serializedData(), authorization: authorization)
    }

    /// What the invite link with `password` shows.
    public func groupJoinInfo(password: Data, authorization: String) async throws -> Signal_GroupJoinInfo {
        let path = APIRoutes.groupJoinInfo.replacingOccurrences(of: "{inviteLinkPassword}", with: Base64URL.encode(password))
        return try await groupCall(.GET, path, body: nil, authorization: authorization)
    }

    private func groupCall<Response: SwiftProtobuf.Message>(
        _ method: HTTPMethod, _ path: String, body: Data?, authorization: String
    ) async throws -> Response {
        let (_, data) = try await send(
            method, path, body: body, as: nil, expecting: [200], contentType: APIRoutes.groupContentType,
            extraHeaders: [("Authorization", authorization)], unidentified: true)
        do {
            return try Response(serializedBytes: Array(data))
        } catch {
            throw ParleyError.server(.malformedResponse("the answer to \(method.rawValue) \(path) is not a \(Response.self) protobuf"))
        }
    }
}
