import Foundation
import ParleyProtocol

/// Profile key commitments and the expiring profile key credentials issued against them: what lets a person show a
/// group that the profile key it stores for them is theirs, without the server learning the key.
public struct ProfileKeyCredentialService: Sendable {
    let store: any ProfileStore
    let operations: ServerZkProfileOperations

    /// How long a credential lasts: seven days from the start of today (UTC), Signal-Server's choice.
    static let lifetimeDays: UInt64 = 7

    /// A service over `store`, issuing with `issuer`'s keys.
    public init(store: any ProfileStore, issuer: GroupCredentialIssuer) {
        self.store = store
        operations = ServerZkProfileOperations(serverSecretParams: issuer.secretParams)
    }

    /// Stores `commitment` (a serialized `ProfileKeyCommitment`) for `accountId`'s profile key `version`.
    /// - Throws: ``GroupRuleError/invalid(_:)`` for a version that is not 64 hex characters or bytes that are not a
    ///   commitment.
    public func publish(accountId: String, version: String, commitment: Data, now: Date) async throws {
        try Self.checkVersion(version)
        guard (try? ProfileKeyCommitment(contents: commitment)) != nil else {
            throw GroupRuleError.invalid("the commitment is not a ProfileKeyCommitment")
        }
        try await store.storeProfileKeyCommitment(
            accountId: accountId, version: version, commitment: Array(commitment), created: UInt64(max(0, now.timeIntervalSince1970 * 1000))
        )
    }

    /// A credential for `aci`'s profile key `version`, issued for `request` (a serialized
    /// `ProfileKeyCredentialRequest`) after checking it encrypts the key the stored commitment commits to.
    /// - Throws: ``GroupRuleError/notFound`` when no commitment was published for that version;
    ///   ``GroupRuleError/invalid(_:)`` for malformed input; ``GroupRuleError/forbidden(_:)`` when the request does not
    ///   match the commitment.
    public func credential(aci: Aci, version: String, request: Data, now: Date) async throws -> Data {
        try Self.checkVersion(version)
        let parsed: ProfileKeyCredentialRequest
        do {
            parsed = try ProfileKeyCredentialRequest(contents: request)
        } catch {
            throw GroupRuleError.invalid("the credential request is not a ProfileKeyCredentialRequest")
        }
        guard let stored = try await store.profileKeyCommitment(accountId: aci.serviceIdString, version: version),
            let commitment = try? ProfileKeyCommitment(contents: Data(stored))
        else { throw GroupRuleError.notFound }
        let day: UInt64 = 86_400
        let expiration = UInt64(max(0, now.timeIntervalSince1970)) / day * day + Self.lifetimeDays * day
        do {
            return try operations.issueExpiringProfileKeyCredential(
                profileKeyCredentialRequest: parsed, userId: aci, profileKeyCommitment: commitment, expiration: expiration
            ).serialize()
        } catch {
            throw GroupRuleError.forbidden("the credential request is not for the profile key this version commits to")
        }
    }

    private static func checkVersion(_ version: String) throws(GroupRuleError) {
        guard version.utf8.count == 64, version.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            throw .invalid("a profile key version is 64 lowercase hex characters")
        }
    }
}
